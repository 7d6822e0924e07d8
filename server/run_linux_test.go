//go:build linux && (amd64 || arm64)

package server_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/internal/proctest"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestCancelKillsRunningCommand: agent/cancel ends the turn and kills the
// command's whole process group, its background children included.
func TestCancelKillsRunningCommand(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "pid")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	command := fmt.Sprintf("sleep 100 & echo $! > %s; wait", fifo)
	h := lsptest.Start(t, lsptest.Setup{
		Handlers: lspclient.Handlers{AskUser: decide("run")},
		// Watched by host pid through a FIFO outside the workspace: no
		// sandbox (its PID namespace is proven in sandbox/ and below).
		InitOpts: map[string]any{"sandbox": map[string]any{"mode": "off"}},
		Script: fmt.Sprintf(`
name: cancel_run
steps:
  - tool_calls:
      - {id: r, name: run, args: {command: %q}}
`, command),
	})
	s := h.NewSession("build")
	done := h.PromptRPC(map[string]any{"sessionId": s.SessionID, "text": "sleep"})
	pid, err := proctest.ReadPid(fifo)
	if err != nil {
		t.Fatal(err)
	}
	child, err := proctest.Watch(pid)
	if err != nil {
		t.Fatalf("child %d is not running: %v", pid, err)
	}
	defer child.Close()
	if gone, err := child.Exited(0); gone || err != nil {
		t.Fatalf("child %d exited before the cancellation (%v)", pid, err)
	}
	if err := h.Editor.Call(h.Ctx, "agent/cancel", map[string]any{"sessionId": s.SessionID}, nil); err != nil {
		t.Fatal(err)
	}
	out := <-done
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	wantStop(t, out.Result, "cancelled")
	// SIGKILL is delivered asynchronously: allow it ample time; a child that
	// was never killed would sleep for 100 seconds.
	if gone, err := child.Exited(10 * time.Second); !gone || err != nil {
		t.Fatalf("child sleep %d still runs after agent/cancel (%v)", pid, err)
	}
	if status, res := h.ToolOutput("r"); status != "failed" || !strings.Contains(fmt.Sprint(res["error"]), "cancelled") {
		t.Fatalf("run = %s %v", status, res)
	}
}
