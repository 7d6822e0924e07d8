package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// halfEditor applies the first change of a whole edit and then fails, as an
// editor whose workspace edit stops at a change it cannot make (LSP's
// failureHandling "abort": the changes before it stay applied).
type halfEditor struct{ *memEditor }

func (e halfEditor) Apply(ctx context.Context, req ApplyRequest) error {
	if !req.Whole || len(req.Changes) < 2 {
		return e.memEditor.Apply(ctx, req)
	}
	if err := e.ws.ApplyToDisk(req.Changes[0]); err != nil {
		return err
	}
	return errors.New("the editor could not apply change 2 of the edit")
}

// TestARewindThatFailsMidwayCanBeUndone: turn 1 edits a.txt and b.txt; a
// code rewind to before it fails after the editor applied a.txt. The
// rewind returns only an error: no undoMessageId, its journal removed and
// known.json never told of a.txt's write. The agent's a.txt, replaced,
// is then only in an undo checkpoint nobody is told of, and even a rewind
// to it leaves a.txt as the user's conflict. A rewind that stops midway
// must leave a way back, as an interrupted one does (its undo id, in the
// result or its journal, and the files it wrote known as its own).
func TestARewindThatFailsMidwayCanBeUndone(t *testing.T) {
	t.Parallel()
	const script = `
name: two
steps:
  - tool_calls:
      - {id: e1, name: edit, args: {path: a.txt, old_string: alpha, new_string: beta}}
      - {id: e2, name: edit, args: {path: b.txt, old_string: one, new_string: two}}
  - text: edited
`
	ctx := context.Background()
	ed := &memEditor{}
	m, _ := newTestManagerOf(t, script, ed, halfEditor{ed}, nil)
	root := m.ws.Root()
	for name, text := range map[string]string{"a.txt": "alpha\n", "b.txt": "one\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := newTestSession(t, m, "build")
	if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "turn one"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("turn one: %+v %v", res, err)
	}
	if readOrAbsent(m, "a.txt") != "beta\n" || readOrAbsent(m, "b.txt") != "two\n" {
		t.Fatalf("after turn one: a.txt %q b.txt %q", readOrAbsent(m, "a.txt"), readOrAbsent(m, "b.txt"))
	}
	res, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: userIDs(s)[0], What: agentproto.RewindCode})
	if err == nil {
		t.Fatalf("the rewind did not fail: %+v", res)
	}
	if got := readOrAbsent(m, "a.txt"); got != "alpha\n" {
		t.Fatalf("the editor did not apply a.txt: %q", got)
	}
	// The way back: the result's undo id, else the journal's.
	undo := res.UndoMessageID
	if undo == "" {
		if j, _ := m.checkpoints.PendingJournal(s.ID()); j != nil {
			undo = j.ID
		}
	}
	if undo == "" {
		t.Fatalf("a rewind that failed after rewriting a.txt names no undo checkpoint (error %v, result %+v, no journal): the agent's a.txt is out of reach", err, res)
	}
	back, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: undo, What: agentproto.RewindCode})
	if err != nil {
		t.Fatal(err)
	}
	if got := readOrAbsent(m, "a.txt"); got != "beta\n" {
		t.Fatalf("the undo of the failed rewind left a.txt = %q (result %+v), want the agent's %q", got, back, "beta\n")
	}
}
