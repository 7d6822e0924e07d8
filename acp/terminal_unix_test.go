//go:build unix

package acp_test

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, as an editor's
// terminal does, so that a kill reaches what the shell started.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills cmd's process group.
func killGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
