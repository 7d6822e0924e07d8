package server_test

import (
	"reflect"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/server/internal/lsptest"
)

const keepUndoScript = `
name: keep-undo
steps:
  - tool_calls:
      - {id: a, name: edit, args: {path: a.txt, old_string: "one", new_string: "ONE\nmore"}}
      - {id: b, name: edit, args: {path: b.txt, old_string: "two", new_string: "TWO"}}
      - {id: c, name: write, args: {path: c.txt, content: "new\n"}}
  - text: done
`

// TestChangedFilesAndUndoOneFile: agent/changedFiles lists what a turn
// changed with its line counts, agent/checkpointFile serves a file as the
// turn's checkpoint has it (the left side of the editor's diff), and
// "Undo" of one file is a code rewind limited to it: the other files keep
// the turn's changes.
func TestChangedFilesAndUndoOneFile(t *testing.T) {
	h := lsptest.Start(t, lsptest.Setup{Script: keepUndoScript, Files: map[string]string{"a.txt": "one\n", "b.txt": "two\n"}})
	s := h.NewSession("build")
	wantStop(t, h.Prompt(s.SessionID, "go"), "end_turn")
	turn := firstUserMessage(t, h.LoadSession(s.SessionID).Messages)

	var changed struct{ Files []agentproto.ChangedFile }
	if err := h.Editor.Call(h.Ctx, "agent/changedFiles", map[string]any{"sessionId": s.SessionID, "messageId": turn}, &changed); err != nil {
		t.Fatal(err)
	}
	want := []agentproto.ChangedFile{
		{Path: "a.txt", Status: "modified", Added: 2, Removed: 1, Restorable: true},
		{Path: "b.txt", Status: "modified", Added: 1, Removed: 1, Restorable: true},
		{Path: "c.txt", Status: "added", Added: 1, Restorable: true},
	}
	if !reflect.DeepEqual(changed.Files, want) {
		t.Fatalf("changedFiles = %+v\nwant %+v", changed.Files, want)
	}
	var a, c agentproto.CheckpointFileText
	if err := h.Editor.Call(h.Ctx, "agent/checkpointFile", map[string]any{"sessionId": s.SessionID, "messageId": turn, "path": "a.txt"}, &a); err != nil {
		t.Fatal(err)
	}
	if !a.Exists || a.Text == nil || *a.Text != "one\n" {
		t.Fatalf("checkpointFile a.txt = %+v", a)
	}
	if err := h.Editor.Call(h.Ctx, "agent/checkpointFile", map[string]any{"sessionId": s.SessionID, "messageId": turn, "path": h.Editor.URI("c.txt")}, &c); err != nil {
		t.Fatal(err)
	}
	if c.Exists || c.Text != nil || c.Path != "c.txt" {
		t.Fatalf("checkpointFile c.txt = %+v", c)
	}
	for _, bad := range []map[string]any{
		{"sessionId": s.SessionID, "messageId": "no-such-message", "path": "a.txt"},
		{"sessionId": s.SessionID, "messageId": turn, "path": "/etc/passwd"},
		{"sessionId": s.SessionID, "messageId": turn, "path": ""},
	} {
		err := h.Editor.Call(h.Ctx, "agent/checkpointFile", bad, nil)
		if lsptest.RPCCode(err) != -32602 {
			t.Errorf("checkpointFile %v: %v, want -32602", bad, err)
		}
	}
	if _, err := h.Rewind(agentproto.RewindParams{SessionID: s.SessionID, ToMessageID: turn, What: "both", Paths: []string{"a.txt"}}); lsptest.RPCCode(err) != -32602 {
		t.Fatalf("rewind both with paths: %v, want -32602", err)
	}

	res, err := h.Rewind(agentproto.RewindParams{SessionID: s.SessionID, ToMessageID: turn, What: "code", Paths: []string{"a.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.Restored, []string{"a.txt"}) {
		t.Fatalf("undo of a.txt restored %v", res.Restored)
	}
	if got := h.Read("a.txt"); got != "one\n" {
		t.Errorf("a.txt = %q after its undo", got)
	}
	if got := h.Read("b.txt"); got != "TWO\n" {
		t.Errorf("b.txt = %q: the undo of a.txt touched it", got)
	}
	if got := h.Read("c.txt"); got != "new\n" {
		t.Errorf("c.txt = %q: the undo of a.txt touched it", got)
	}
}
