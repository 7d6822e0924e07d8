//go:build !unix

package sandbox

import (
	"os"
	"syscall"
)

// Terminate kills the command's process (no process groups, so no
// watchdog, here; exited is not waited for).
func (p *Prepared) Terminate(proc *os.Process, _ <-chan struct{}) { KillGroup(proc) }

// KillGroup kills proc itself (no process groups here); nil does nothing.
func KillGroup(proc *os.Process) {
	if proc != nil {
		_ = proc.Kill()
	}
}

// groupAttr: no process groups here.
func groupAttr() *syscall.SysProcAttr { return nil }
