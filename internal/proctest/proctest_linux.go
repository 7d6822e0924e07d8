//go:build linux && (amd64 || arm64)

// Package proctest watches processes from tests: whether a process (a
// command's background child, say) has exited, without polling or sleeps,
// and counts the test process's own open descriptors (OpenFiles).
package proctest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Process is a process watched through a pidfd (Linux 5.3+).
type Process struct {
	pid int
	fd  int
}

// Watch opens a pidfd for pid. Close it when done.
func Watch(pid int) (*Process, error) {
	const sysPidfdOpen = 434 // the same number on amd64 and arm64
	fd, _, errno := syscall.Syscall(sysPidfdOpen, uintptr(pid), 0, 0)
	if errno != 0 {
		return nil, fmt.Errorf("pidfd_open %d: %w", pid, errno)
	}
	return &Process{pid: pid, fd: int(fd)}, nil
}

// Exited waits up to timeout (0: not at all) for the process to exit and
// reports whether it has.
func (p *Process) Exited(timeout time.Duration) (bool, error) {
	for {
		var set syscall.FdSet
		set.Bits[p.fd/64] |= 1 << (uint(p.fd) % 64)
		tv := syscall.NsecToTimeval(timeout.Nanoseconds())
		n, err := syscall.Select(p.fd+1, &set, nil, nil, &tv)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return false, fmt.Errorf("select on the pidfd of %d: %w", p.pid, err)
		}
		return n == 1, nil
	}
}

// Close releases the pidfd.
func (p *Process) Close() error { return syscall.Close(p.fd) }

// ReadPid reads the pid a command writes into the fifo (made with
// syscall.Mkfifo); opening the fifo blocks until the command opens it.
func ReadPid(fifo string) (int, error) {
	f, err := os.Open(fifo)
	if err != nil {
		return 0, fmt.Errorf("open %s: %w", fifo, err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", fifo, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 0, fmt.Errorf("pid %q in %s: %w", b, fifo, err)
	}
	return pid, nil
}
