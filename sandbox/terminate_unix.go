//go:build unix

package sandbox

import (
	"errors"
	"log/slog"
	"os"
	"syscall"
	"time"
)

// ParentDeathSignal is the signal the process p.Argv starts should get
// when the thread that started it exits (Linux's Pdeathsig: the caller
// keeps that thread as long as the process runs): SIGTERM for the reaper,
// which then ends the command with everything it started, else SIGKILL.
func (p *Prepared) ParentDeathSignal() syscall.Signal {
	if p != nil && p.Reaps {
		return syscall.SIGTERM
	}
	return syscall.SIGKILL
}

// Terminate ends the command p prepared, started as proc in a process
// group of its own; exited is closed once proc has been waited for. The
// reaper (p.Reaps) gets SIGTERM and kills everything the command started
// before it exits; only if it has not exited within TerminateGrace is the
// group killed. Anything else has its group killed (SIGKILL) at once, as
// a killed reaper could no longer end what left the group. Then the
// command's watchdog (WatchedCommand) fires: it kills the command's own
// group, which the reaper's group kill does not reach, also when the
// reaper is gone.
func (p *Prepared) Terminate(proc *os.Process, exited <-chan struct{}) {
	if proc == nil {
		return
	}
	defer p.stopWatchdog()
	if p != nil && p.Reaps {
		if err := proc.Signal(syscall.SIGTERM); err == nil {
			t := time.NewTimer(TerminateGrace)
			select {
			case <-exited:
			case <-t.C:
				slog.Warn("sandbox: the command's reaper did not end it; killing its process group", "pid", proc.Pid, "after", TerminateGrace)
			}
			t.Stop()
		}
	}
	KillGroup(proc)
}

// KillGroup sends SIGKILL to the process group proc leads (proc started
// in a group of its own: Command puts it there): everything left in it
// ends. A group already gone is no error; nil does nothing.
func KillGroup(proc *os.Process) {
	if proc == nil {
		return
	}
	if err := syscall.Kill(-proc.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		slog.Warn("sandbox: kill process group", "pgid", proc.Pid, "err", err)
	}
}

// groupAttr starts a process in a session of its own, whose process
// group it leads (Terminate and KillGroup end the group). A new session
// has no controlling terminal: where agentls has one (a plugin in a
// terminal Neovim started it, or `agentls demo` from a shell),
// a command could otherwise push input into it with TIOCSTI — typed into
// the user's shell or editor, outside any sandbox — or read what the user
// types there.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
