//go:build unix

package inheritedfd

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"syscall"
)

// fdDir lists this process's open descriptors.
func fdDir() string {
	if runtime.GOOS == "linux" {
		return "/proc/self/fd"
	}
	return "/dev/fd"
}

func closeOnExec() error {
	d, err := os.Open(fdDir())
	if err != nil {
		return fmt.Errorf("list the inherited descriptors: %w", err)
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return fmt.Errorf("list the inherited descriptors: %w", err)
	}
	for _, name := range names {
		if fd, err := strconv.Atoi(name); err == nil && fd > 2 {
			syscall.CloseOnExec(fd) // the listing's own descriptor, closed meanwhile, included: harmless
		}
	}
	return nil
}
