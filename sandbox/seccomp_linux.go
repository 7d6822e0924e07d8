package sandbox

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// denySockets installs socketFilter, refusing the foreign families and
// also unix sockets (noUnix) or IP (noNetwork), on every thread of this
// process for good (execve keeps it; children inherit it).
func denySockets(noUnix, noNetwork bool) error {
	return addFilter("socket filter", func(goarch string) ([]unix.SockFilter, error) {
		return socketFilter(goarch, socketRule{noUnix: noUnix, noNetwork: noNetwork})
	})
}

// denyKeyrings installs keyringFilter the same way.
func denyKeyrings() error { return addFilter("keyring filter", keyringFilter) }

// addFilter installs the filter build makes for this architecture on
// every thread of this process for good.
func addFilter(name string, build func(goarch string) ([]unix.SockFilter, error)) error {
	prog, err := build(runtime.GOARCH)
	if err != nil {
		return err
	}
	if _, err := installFilter(prog, 0); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// watchProcessCalls installs processFilter on every thread of this
// process for good and sends its listener over the socket sock to the
// reaper, which answers the filter's questions (supervisor_linux.go); it
// closes sock. Under a launcher that did so already (agentls run inside a
// command) the kernel allows no second listener: the outer one, whose
// reaper watches the same calls for every process below it, stays the
// only one.
func watchProcessCalls(sock int) error {
	defer unix.Close(sock)
	prog, err := processFilter(runtime.GOARCH)
	if err != nil {
		return err
	}
	listener, err := installFilter(prog, unix.SECCOMP_FILTER_FLAG_NEW_LISTENER|unix.SECCOMP_FILTER_FLAG_TSYNC_ESRCH)
	if errors.Is(err, unix.EBUSY) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("process filter: %w", err)
	}
	defer unix.Close(listener)
	if err := unix.Sendmsg(sock, []byte{0}, unix.UnixRights(listener), nil, 0); err != nil {
		return fmt.Errorf("process filter: hand the listener to the reaper: %w", err)
	}
	return nil
}

// installFilter installs prog with TSYNC and flags: no_new_privs on this
// thread, then the filter with TSYNC, which gives every thread both (the
// kernel refuses a filter without one of them). It returns what the
// kernel did (a listener's descriptor with NEW_LISTENER).
func installFilter(prog []unix.SockFilter, flags uintptr) (int, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return -1, fmt.Errorf("no_new_privs: %w", err)
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	r, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC|flags, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	switch {
	case errno != 0:
		return -1, fmt.Errorf("seccomp: %w", errno)
	case r != 0 && flags&unix.SECCOMP_FILTER_FLAG_NEW_LISTENER == 0: // TSYNC: the thread that could not take the filter
		return -1, fmt.Errorf("thread %d could not take it", r)
	}
	return int(r), nil
}
