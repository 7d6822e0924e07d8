//go:build unix

package acp_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// A command cancelled while it runs (agent-shell's C-c C-c) has its changes
// recorded all the same: the rescan after `run` must not use the cancelled
// turn's context, or /rewind takes the command's change for the user's own
// and leaves it alone ("Left alone (changed since)").
func TestCancelledCommandChangesAreRewound(t *testing.T) {
	gate := filepath.Join(t.TempDir(), "gate")
	if err := syscall.Mkfifo(gate, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	client := &testClient{permit: choose("allow_once")}
	r := newRig(t, setup{userConfig: buildByDefault, client: client,
		files: map[string]string{"app.txt": "alpha\n"},
		// The command changes app.txt, then blocks on the gate until it is killed.
		script: `
steps:
  - tool_calls: [{id: r1, name: run, args: {command: "printf 'changed\\n' > app.txt && read x < ` + gate + `"}}]
`})
	sid := r.newSession().SessionId
	done := r.promptAsync(sid, "change it")

	// Opening the gate for writing returns once the command opened it for
	// reading: app.txt is changed by then.
	opened := make(chan *os.File, 1)
	go func() {
		f, err := os.OpenFile(gate, os.O_WRONLY, 0)
		if err != nil {
			t.Errorf("open the gate: %v", err)
			close(opened)
			return
		}
		opened <- f
	}()
	select {
	case f, ok := <-opened:
		if !ok {
			t.FailNow()
		}
		defer f.Close()
	case res := <-done:
		t.Fatalf("the turn ended before the command reached its gate: %s, %v\n%s", res.stop, res.err, r.client.agentText())
	case <-time.After(30 * time.Second):
		t.Fatal("the command did not reach its gate within 30s")
	}
	if b, _ := os.ReadFile(filepath.Join(r.dir, "app.txt")); string(b) != "changed\n" {
		t.Fatalf("app.txt = %q before the cancel", b)
	}
	r.cancel(sid)
	select {
	case res := <-done:
		if res.err != nil || res.stop != sdk.StopReasonCancelled {
			t.Fatalf("the running command's turn: %s, %v", res.stop, res.err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the turn did not end within 30s of session/cancel")
	}

	if stop := r.mustPrompt(sid, "/rewind"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("/rewind: %s", stop)
	}
	text := r.client.agentText()
	if b, _ := os.ReadFile(filepath.Join(r.dir, "app.txt")); string(b) != "alpha\n" || strings.Contains(text, "Left alone") {
		t.Errorf("after /rewind app.txt = %q; /rewind said:\n%s", b, text)
	}
}
