//go:build unix

package sandbox

import (
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// execve replaces this process with path.
func execve(path string, argv, env []string) error {
	if err := syscall.Exec(path, argv, env); err != nil {
		return fmt.Errorf("exec %s: %w", path, err)
	}
	return nil
}

// dupOnto makes descriptor to a copy of fd.
func dupOnto(fd, to int) error { return unix.Dup2(fd, to) }
