//go:build unix

package tools

import (
	"errors"
	"log/slog"
	"os"
	"syscall"
)

// processGroupAttr puts the command in a process group of its own, so that it
// and everything it starts can be killed together.
func processGroupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup sends SIGKILL to the process group led by p.
func killGroup(p *os.Process) {
	if err := syscall.Kill(-p.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		slog.Warn("run: kill process group", "pgid", p.Pid, "err", err)
	}
}

// exitCode is the command's exit code; a command killed by a signal gets
// 128+signal, as a shell reports it.
func exitCode(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
