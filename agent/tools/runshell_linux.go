package tools

import "syscall"

// setParentDeathSignal has the kernel send sig to the command's first
// process (the shell, bwrap, or the command's reaper) when the OS thread
// that started it exits (Pdeathsig is tied to that thread, not to the
// process): runShell keeps its goroutine locked to that thread from the
// start until the process has been waited for, so no other goroutine's
// thread exit can fire it early. It reaches only that process: the rest
// are the reaper's or the watchdog's (shellCommand).
func setParentDeathSignal(a *syscall.SysProcAttr, sig syscall.Signal) { a.Pdeathsig = sig }
