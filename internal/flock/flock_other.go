//go:build !unix

package flock

import "os"

// Try grants every lock where flock is not available.
func Try(*os.File, bool) (bool, error) { return true, nil }

// Unlock is a no-op where flock is not available.
func Unlock(*os.File) error { return nil }
