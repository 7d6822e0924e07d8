//go:build !unix

package workspace

import "os"

// lockFile is a no-op where flock is not available.
func lockFile(*os.File) error { return nil }

// processAlive cannot tell: temporary files are then swept by age only.
func processAlive(int) bool { return true }
