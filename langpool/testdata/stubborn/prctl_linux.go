package main

import (
	"fmt"
	"os"
	"syscall"
)

// keepAfterParent clears the parent-death signal the reaper set.
func keepAfterParent() {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_PDEATHSIG, 0, 0); errno != 0 {
		fmt.Fprintf(os.Stderr, "stubborn: clear the parent-death signal: %v\n", errno)
	}
}
