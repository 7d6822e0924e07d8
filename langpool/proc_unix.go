//go:build unix

package langpool

import (
	"errors"
	"log/slog"
	"os/exec"
	"syscall"
)

// setGroup starts cmd in a process group of its own (killGroup ends it
// with every child it started).
func setGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup sends SIGKILL to cmd's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		slog.Warn("langpool: kill process group", "pgid", cmd.Process.Pid, "err", err)
	}
}
