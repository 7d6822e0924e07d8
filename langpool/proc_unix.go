//go:build unix

package langpool

import (
	"os/exec"
	"syscall"
)

// setGroup starts cmd in a process group of its own (sandbox.Prepared's
// Terminate ends it with every child it started).
func setGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }
