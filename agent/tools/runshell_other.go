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
func shellCommand(command string, pol sandbox.Policy) (*exec.Cmd, watchdog, *sandbox.Prepared, error) {
	prep, err := sandbox.Prepare(pol, "", []string{"/bin/sh", "-c", command})
	if err != nil {
		return nil, watchdog{}, nil, err
	}
	return exec.Command(prep.Argv[0], prep.Argv[1:]...), watchdog{}, prep, nil
}

// killGroup kills the command's own process (no process groups here).
func killGroup(p *os.Process) { _ = p.Kill() }

// exitCode is the command's exit code.
func exitCode(ps *os.ProcessState) int { return ps.ExitCode() }
