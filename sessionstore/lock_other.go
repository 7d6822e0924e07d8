//go:build !unix

package sessionstore

import "os"

// lockFile is a no-op where flock is not available.
func lockFile(*os.File) error { return nil }
