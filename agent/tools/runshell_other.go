//go:build !unix

package tools

import (
	"os"
	"syscall"
)

// processGroupAttr has no process groups to offer on this platform.
func processGroupAttr() *syscall.SysProcAttr { return nil }

// killGroup kills the command's own process (no process groups here).
func killGroup(p *os.Process) { _ = p.Kill() }

// exitCode is the command's exit code.
func exitCode(ps *os.ProcessState) int { return ps.ExitCode() }
