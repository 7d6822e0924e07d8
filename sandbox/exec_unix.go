//go:build unix

package sandbox

import (
	"fmt"
	"syscall"
)

// execve replaces this process with path.
func execve(path string, argv, env []string) error {
	if err := syscall.Exec(path, argv, env); err != nil {
		return fmt.Errorf("exec %s: %w", path, err)
	}
	return nil
}
