package tools

import "syscall"

// setParentDeathSignal has the kernel send SIGKILL to the shell when the OS
// thread that started it exits (Pdeathsig is tied to that thread, not to the
// process): runShell keeps its goroutine locked to that thread from the
// start until the shell has been waited for, so no other goroutine's thread
// exit can fire it early. It reaches only the shell: its children are the
// watchdog's (shellCommand).
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
