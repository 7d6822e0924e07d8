//go:build linux && (amd64 || arm64)

package tools

import (
	"context"
	"encoding/json"
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

func TestRunCancelKillsProcessGroup(t *testing.T) {
	env := newFake(t, nil)
	fifo := filepath.Join(t.TempDir(), "pid")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type outcome struct {
		r   Result
		err error
	}
	done := make(chan outcome, 1)
	args, err := json.Marshal(RunParams{Command: fmt.Sprintf("sleep 100 & echo $! > %s; wait", fifo)})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		r, err := RunTool{}.Run(ctx, env, args)
		done <- outcome{r, err}
	}()
	f, err := os.Open(fifo) // blocks until the shell opens it to write the child's pid
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("child pid %q: %v", b, err)
	}
	pidfd, err := pidfdOpen(pid)
	if err != nil {
		t.Fatalf("child %d is not running before the cancellation: %v", pid, err)
	}
	defer syscall.Close(pidfd)
	if exited(t, pidfd, 0) {
		t.Fatalf("child %d exited before the cancellation", pid)
	}
	cancel()
	out := <-done
	if out.err != nil {
		t.Fatalf("Go error: %v", out.err)
	}
	wantFail(t, out.r, "cancelled")
	// SIGKILL is delivered asynchronously: give the child ample time to die;
	// a child that was never killed would sleep for 100 seconds.
	if !exited(t, pidfd, 10*time.Second) {
		t.Errorf("child sleep %d still runs after the cancellation", pid)
	}
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

// exited waits up to timeout for the process behind pidfd to exit.
func exited(t *testing.T, pidfd int, timeout time.Duration) bool {
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
