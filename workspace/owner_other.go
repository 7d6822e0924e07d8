//go:build !unix

package workspace

// processAlive cannot tell: temporary files are then swept by age only.
func processAlive(int) bool { return true }
