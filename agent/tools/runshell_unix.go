//go:build unix

package tools

import (
	"os"
	"os/exec"
	"syscall"

	"github.com/agentls/agentls/sandbox"
)

// shellCommand builds /bin/sh -c command behind the sandbox's watchdog
// (sandbox.WatchedCommand: what is left in the command's group is killed
// when agentls ends, however it ends), in the sandbox pol describes (the
// sandbox's launcher, and bwrap, start the watchdog's shell), with environ
// (PATH never into the workspace), in a process group of its own, so that
// it and everything it starts can be killed together. On Linux the kernel
// sends its first process the Prepared's ParentDeathSignal when the
// thread that started it ends: SIGKILL to the shell or bwrap, SIGTERM to
// the command's reaper, which then kills all the command started.
func shellCommand(command string, pol sandbox.Policy, environ []string) (*exec.Cmd, *sandbox.Prepared, error) {
	cmd, prep, err := sandbox.WatchedCommand(pol, "", []string{"/bin/sh", "-c", command}, environ)
	if err != nil {
		return nil, nil, err
	}
	setParentDeathSignal(cmd.SysProcAttr, prep.ParentDeathSignal())
	return cmd, prep, nil
}

// exitCode is the command's exit code; a command killed by a signal gets
// 128+signal, as a shell reports it.
func exitCode(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
