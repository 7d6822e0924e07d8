//go:build !unix

package sessionstore

import "os"

// lockFile is a no-op where flock is not available.
func lockFile(*os.File) error { return nil }

// unlockFile is a no-op where flock is not available.
func unlockFile(*os.File) error { return nil }
