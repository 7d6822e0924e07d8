package nodump

import (
	"fmt"
	"syscall"
)

// prSetDumpable is prctl's PR_SET_DUMPABLE (linux/prctl.h).
const prSetDumpable = 4

func enable() error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetDumpable, 0, 0); errno != 0 {
		return fmt.Errorf("prctl(PR_SET_DUMPABLE, 0): %w", errno)
	}
	return nil
}
