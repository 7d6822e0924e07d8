//go:build !linux

package sandbox

import "errors"

// restrictSelf: Landlock is Linux's.
func restrictSelf(spec) error { return errors.New("landlock: Linux only") }
