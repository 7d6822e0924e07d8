package main

import (
	"fmt"
	"io"
	"sync"

	"golang.org/x/sys/unix"
)

// marks writes each turn's bounds on CLOCK_MONOTONIC ("pid turn start_ns
// end_ns" a line) for -marks, so that a profile taken with `perf record -k
// CLOCK_MONOTONIC` can be split at the turns (`perf script --ns` prints the
// same clock).
type marks struct {
	mu sync.Mutex
	w  io.Writer // nil: no marks wanted
}

var turnMarks marks

// now is CLOCK_MONOTONIC in nanoseconds (0 if it cannot be read).
func (m *marks) now() int64 {
	if m.w == nil {
		return 0
	}
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		return 0
	}
	return ts.Nano()
}

// turn records turn n of process pid as [from, to].
func (m *marks) turn(pid, n int, from, to int64) {
	if m.w == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	fmt.Fprintf(m.w, "%d %d %d %d\n", pid, n, from, to)
}
