package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// denyUnixSockets installs socketFilter on every thread of this process
// for good (execve keeps it; children inherit it).
func denyUnixSockets() error {
	prog, err := socketFilter(runtime.GOARCH)
	if err != nil {
		return err
	}
	// no_new_privs on this thread, then the filter with TSYNC, which gives
	// every thread both (the kernel refuses a filter without one of them).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("unix socket filter: no_new_privs: %w", err)
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	r, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	switch {
	case errno != 0:
		return fmt.Errorf("unix socket filter: seccomp: %w", errno)
	case r != 0: // TSYNC: the thread that could not take the filter
		return fmt.Errorf("unix socket filter: thread %d could not take it", r)
	}
	return nil
}
