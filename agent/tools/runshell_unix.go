//go:build unix

package tools

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"github.com/agentls/agentls/sandbox"
)

// watchdogScript starts the command's shell behind a watchdog. A background
// job (in the command's process group, its output sent nowhere) reads fd 3,
// the read end of a pipe whose only write end agentls holds, and kills the
// whole group once the read ends; the shell then closes fd 3 and execs
// `/bin/sh -c "$1"` (the command) in its own place, so the command sees the
// same pid, argv, exit code and file descriptors as a plain `sh -c`. When
// agentls is gone — killed with SIGKILL, crashed, or done with the command —
// the kernel closes the write end and the watchdog kills the group.
const watchdogScript = `(read x <&3; kill -9 0) </dev/null >/dev/null 2>&1 & exec 3<&-; exec /bin/sh -c "$1"`

// shellCommand builds /bin/sh -c command behind the watchdog, in the
// sandbox pol describes (the sandbox's launcher, and bwrap, start the
// watchdog's shell), with environ (sandbox.Command: PATH never into the
// workspace), in a process group of its own, so that it and everything it
// starts can be killed together. On Linux the kernel sends its first
// process the Prepared's ParentDeathSignal when the thread that started
// it ends: SIGKILL to the shell or bwrap, SIGTERM to the command's
// reaper, which then kills all the command started.
func shellCommand(command string, pol sandbox.Policy, environ []string) (*exec.Cmd, watchdog, *sandbox.Prepared, error) {
	cmd, prep, err := sandbox.Command(pol, "", []string{"/bin/sh", "-c", watchdogScript, "sh", command}, environ)
	if err != nil {
		return nil, watchdog{}, nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		prep.Cleanup()
		return nil, watchdog{}, nil, fmt.Errorf("watchdog pipe: %w", err)
	}
	cmd.ExtraFiles = []*os.File{r} // fd 3
	setParentDeathSignal(cmd.SysProcAttr, prep.ParentDeathSignal())
	return cmd, watchdog{r: r, w: w}, prep, nil
}

// exitCode is the command's exit code; a command killed by a signal gets
// 128+signal, as a shell reports it.
func exitCode(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
