//go:build !unix

package sandbox

import "errors"

// execve: the launcher is Unix's (Prepare never uses it elsewhere).
func execve(string, []string, []string) error {
	return errors.New("the sandbox launcher runs on Linux only")
}

// dupOnto: the launcher is Unix's.
func dupOnto(int, int) error { return errors.New("the sandbox launcher runs on Linux only") }
