//go:build unix && !linux

package tools

import "syscall"

// setParentDeathSignal: only Linux has a parent-death signal; the watchdog
// (shellCommand) still kills the group when agentls is gone.
func setParentDeathSignal(*syscall.SysProcAttr, syscall.Signal) {}
