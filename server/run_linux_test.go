//go:build linux && (amd64 || arm64)

package server_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCancelKillsRunningCommand: agent/cancel ends the turn and kills the
// command's whole process group, its background children included.
func TestCancelKillsRunningCommand(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pid")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	command := fmt.Sprintf("sleep 100 & echo $! > %s; wait", fifo)
	h := start(t, setup{
		initOpts: map[string]any{"run": map[string]any{"allow": []string{"sleep 100 &*"}}},
		script: fmt.Sprintf(`
name: cancel_run
steps:
  - tool_calls:
      - {id: r, name: run, args: {command: %q}}
`, command),
	})
	s := h.newSession("build")
	done := h.promptRPC(map[string]any{"sessionId": s.SessionID, "text": "sleep"})
	pid := readPid(t, fifo)
	pidfd, err := pidfdOpen(pid)
	if err != nil {
		t.Fatalf("child %d is not running: %v", pid, err)
	}
	defer syscall.Close(pidfd)
	if processExited(t, pidfd, 0) {
		t.Fatalf("child %d exited before the cancellation", pid)
	}
	if err := h.ed.Call(h.ctx, "agent/cancel", map[string]any{"sessionId": s.SessionID}, nil); err != nil {
		t.Fatal(err)
	}
	out := <-done
	if out.err != nil {
		t.Fatal(out.err)
	}
	wantStop(t, out.res, "cancelled")
	// SIGKILL is delivered asynchronously: allow it ample time; a child that
	// was never killed would sleep for 100 seconds.
	if !processExited(t, pidfd, 10*time.Second) {
		t.Fatalf("child sleep %d still runs after agent/cancel", pid)
	}
	if status, res := h.toolOutput("r"); status != "failed" || !strings.Contains(fmt.Sprint(res["error"]), "cancelled") {
		t.Fatalf("run = %s %v", status, res)
	}
}

// readPid reads the pid the command writes into the fifo; opening the fifo
// blocks until the command opens it.
func readPid(t *testing.T, fifo string) int {
	t.Helper()
	f, err := os.Open(fifo)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("child pid %q: %v", b, err)
	}
	return pid
}

// pidfdOpen returns a pidfd for pid (Linux 5.3+).
func pidfdOpen(pid int) (int, error) {
	const sysPidfdOpen = 434
	fd, _, errno := syscall.Syscall(sysPidfdOpen, uintptr(pid), 0, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

// processExited waits up to timeout for the process behind pidfd to exit
// (the pidfd becomes readable).
func processExited(t *testing.T, pidfd int, timeout time.Duration) bool {
	t.Helper()
	for {
		var set syscall.FdSet
		set.Bits[pidfd/64] |= 1 << (uint(pidfd) % 64)
		tv := syscall.NsecToTimeval(timeout.Nanoseconds())
		n, err := syscall.Select(pidfd+1, &set, nil, nil, &tv)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			t.Fatalf("select on pidfd: %v", err)
		}
		return n == 1
	}
}
