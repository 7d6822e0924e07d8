//go:build !unix

package tools

import (
	"os"
	"os/exec"
)

// shellCommand is /bin/sh -c command; this platform has no process groups
// and no watchdog.
func shellCommand(command string) (*exec.Cmd, watchdog, error) {
	return exec.Command("/bin/sh", "-c", command), watchdog{}, nil
}

// killGroup kills the command's own process (no process groups here).
func killGroup(p *os.Process) { _ = p.Kill() }

// exitCode is the command's exit code.
func exitCode(ps *os.ProcessState) int { return ps.ExitCode() }
