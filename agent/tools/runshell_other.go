//go:build !unix

package tools

import (
	"os"
	"os/exec"

	"github.com/agentls/agentls/sandbox"
)

// shellCommand is /bin/sh -c command; this platform has no process groups,
// no watchdog and no sandbox (sandbox.Prepare leaves the command as it is:
// the status says so and every command is asked).
func shellCommand(command string, pol sandbox.Policy, environ []string) (*exec.Cmd, *sandbox.Prepared, error) {
	return sandbox.WatchedCommand(pol, "", []string{"/bin/sh", "-c", command}, environ)
}

// exitCode is the command's exit code.
func exitCode(ps *os.ProcessState) int { return ps.ExitCode() }
