//go:build linux && (amd64 || arm64)

package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/proctest"
)

func TestRunCancelKillsProcessGroup(t *testing.T) {
	t.Parallel()
	env := newFake(t, nil)
	// Process-group mechanics, watched by host pid through a FIFO outside
	// the workspace: unconfined. The sandbox's PID namespace (no escape
	// from the group) is proven in sandbox/.
	env.cfg.Sandbox.Mode = "off"
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
		r, err := runTool.Run(ctx, env, args)
		done <- outcome{r, err}
	}()
	pid, err := proctest.ReadPid(fifo) // blocks until the shell opens it to write the child's pid
	if err != nil {
		t.Fatal(err)
	}
	child, err := proctest.Watch(pid)
	if err != nil {
		t.Fatalf("child %d is not running before the cancellation: %v", pid, err)
	}
	defer child.Close()
	if gone, err := child.Exited(0); gone || err != nil {
		t.Fatalf("child %d exited before the cancellation (%v)", pid, err)
	}
	cancel()
	out := <-done
	if out.err != nil {
		t.Fatalf("Go error: %v", out.err)
	}
	wantFail(t, out.r, "cancelled")
	// SIGKILL is delivered asynchronously: give the child ample time to die;
	// a child that was never killed would sleep for 100 seconds.
	if gone, err := child.Exited(10 * time.Second); !gone || err != nil {
		t.Errorf("child sleep %d still runs after the cancellation (%v)", pid, err)
	}
}
