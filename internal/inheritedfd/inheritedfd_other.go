//go:build !unix

package inheritedfd

// closeOnExec: Windows hands a process only the handles it is told to.
func closeOnExec() error { return nil }
