//go:build unix

package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
)

// heldCommand holds the command `echo > ready.fifo; read x < release.fifo`
// while it runs: it opens the FIFO ready (Started returns once it has) and
// then reads a line from the FIFO release (Release sends it). Both are in
// the workspace, where the scan does not list them (not regular files).
type heldCommand struct{ ready, release string }

func newHeldCommand(t *testing.T, root string) heldCommand {
	t.Helper()
	h := heldCommand{ready: filepath.Join(root, "ready.fifo"), release: filepath.Join(root, "release.fifo")}
	for _, p := range []string{h.ready, h.release} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// Started waits until the command runs.
func (h heldCommand) Started(t *testing.T) { t.Helper(); fifoDo(t, h.ready, os.O_RDONLY) }

// Release lets the command end.
func (h heldCommand) Release(t *testing.T) { t.Helper(); fifoDo(t, h.release, os.O_WRONLY) }

// fifoDo opens the FIFO at p (blocking until its other end is opened) and
// reads or writes a line, within a bound.
func fifoDo(t *testing.T, p string, flag int) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		f, err := os.OpenFile(p, flag, 0)
		if err != nil {
			done <- err
			return
		}
		defer f.Close()
		if flag == os.O_WRONLY {
			_, err = f.Write([]byte("go\n"))
		} else {
			_, err = f.Read(make([]byte, 8))
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the command never opened %s", p)
	}
}

// TestRewindKeepsWhatAnotherSessionWroteDuringACommand: session A runs a
// command that waits; meanwhile session B (another chat on the same
// workspace) writes y.txt; then A's command ends. y.txt is B's work, not
// A's command's: a code rewind of A's turn must leave it alone (a
// conflict), not delete it.
func TestRewindKeepsWhatAnotherSessionWroteDuringACommand(t *testing.T) {
	t.Parallel()
	const script = `
name: two-sessions
steps:
  - tool_calls:
      - {id: hold, name: run, args: {command: "echo > ready.fifo; read x < release.fifo"}}
  - tool_calls:
      - {id: w, name: write, args: {path: y.txt, content: "session B's work\n"}}
  - text: B done
  - text: A done
`
	ctx := context.Background()
	ed := &memEditor{ask: func(context.Context, AskRequest) (AskReply, error) {
		return AskReply{Answers: map[string]any{"decision": "allow_once"}}, nil
	}}
	m, _ := newTestManager(t, script, ed, nil)
	root := m.ws.Root()
	held := newHeldCommand(t, root)
	a := newTestSession(t, m, "build")
	b := newTestSession(t, m, "build")
	turnA := make(chan error, 1)
	go func() {
		res, err := m.Prompt(ctx, PromptRequest{SessionID: a.ID(), Text: "A: run it"})
		if err == nil && res.StopReason != agentproto.StopEndTurn {
			err = fmt.Errorf("stop reason %q", res.StopReason)
		}
		turnA <- err
	}()
	held.Started(t)
	if res, err := m.Prompt(ctx, PromptRequest{SessionID: b.ID(), Text: "B: write y"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("B's turn: %+v %v", res, err)
	}
	if got := readWS(t, m, "y.txt"); got != "session B's work\n" {
		t.Fatalf("B did not write y.txt: %q", got)
	}
	held.Release(t)
	if err := <-turnA; err != nil {
		t.Fatalf("A's turn: %v", err)
	}
	if out := ed.toolResult("hold"); !strings.Contains(out, `"exit_code":0`) {
		t.Fatalf("A's command: %s", out)
	}
	res, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: a.ID(), ToMessageID: userIDs(a)[0], What: agentproto.RewindCode})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(root, "y.txt")); err != nil || string(got) != "session B's work\n" {
		t.Errorf("y.txt after A's rewind: %q %v, want session B's file kept (result %+v)", got, err, res)
	}
	if !slices.ContainsFunc(res.Conflicts, func(c agentproto.RewindConflict) bool { return c.Path == "y.txt" }) {
		t.Errorf("y.txt is not a conflict: conflicts %+v, restored %v", res.Conflicts, res.Restored)
	}
}
