package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// ignoredScript: turn 1 adds f.txt to .gitignore; turn 2 only answers.
const ignoredScript = `
name: ignored
steps:
  - tool_calls:
      - {id: e1, name: edit, args: {path: .gitignore, old_string: "x.log", new_string: "x.log\nf.txt"}}
  - text: ignored
  - text: answered
`

// TestRewindKeepsWhatItOverwritesOfAnIgnoredFile: a file the checkpoint
// kept (f.txt) is ignored since (turn 1 added it to .gitignore), and the
// user then writes their own text in it. A code rewind to before turn 1
// writes the checkpoint's f.txt over it, but its undo checkpoint never
// held the user's text (the scan skips ignored files): after the rewind
// and its undo, the user's f.txt is gone for good. A rewind must never
// overwrite or delete a file its undo checkpoint does not hold (a
// conflict), or keep it in that checkpoint.
func TestRewindKeepsWhatItOverwritesOfAnIgnoredFile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ed := &memEditor{}
	m, _ := newTestManager(t, ignoredScript, ed, nil)
	root := m.ws.Root()
	write := func(rel, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".gitignore", "x.log\n")
	write("f.txt", "v1\n")
	s := newTestSession(t, m, "build")
	if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "turn one"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("turn one: %+v %v", res, err)
	}
	if got := readWS(t, m, ".gitignore"); got != "x.log\nf.txt\n" {
		t.Fatalf(".gitignore after turn one = %q", got)
	}
	// The user's own work, in a file git now ignores.
	const mine = "the user's own notes\n"
	write("f.txt", mine)
	if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "turn two"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("turn two: %+v %v", res, err)
	}
	ids := userIDs(s)
	res, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: ids[0], What: agentproto.RewindCode})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rewind: %+v", res)
	if got := readOrAbsent(m, "f.txt"); got == mine {
		return // left alone (a conflict): nothing lost
	}
	// Overwritten: its undo must bring the user's text back.
	undo, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: res.UndoMessageID, What: agentproto.RewindCode})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("undo: %+v", undo)
	if got := readOrAbsent(m, "f.txt"); got != mine {
		t.Fatalf("the rewind overwrote the user's f.txt (ignored since the checkpoint) and its undo does not bring it back: f.txt = %q, want %q", got, mine)
	}
}

// readOrAbsent is a workspace file's text, or "(absent)".
func readOrAbsent(m *Manager, rel string) string {
	b, err := os.ReadFile(filepath.Join(m.ws.Root(), filepath.FromSlash(rel)))
	if err != nil {
		return "(absent)"
	}
	return string(b)
}
