//go:build !unix

package sandbox

import "os/exec"

// setUser: running as another user is Unix's.
func setUser(*exec.Cmd, *User) {}

// chownFor: nothing to do off Unix.
func chownFor(string, *User) error { return nil }

// reachableBy: running as another user is Unix's.
func reachableBy(string, *User) bool { return true }
