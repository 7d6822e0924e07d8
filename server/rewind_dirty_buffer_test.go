package server_test

import (
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/server/internal/lsptest"
	"github.com/agentls/agentls/workspace"
)

// TestRewindKeepsTheUnsavedBufferOfAFile: turn 1 edits a.txt; the user
// opens it and types text of their own, not saved yet. A code rewind to
// before turn 1 judges a.txt by its disk (agentls's own write, so "restore
// it") and sends the editor a whole-file edit that replaces the buffer:
// the user's unsaved typing is gone from the buffer, and the rewind's undo
// checkpoint (read from disk) never had it, so the undo cannot bring it
// back either. A buffer holding unsaved changes is someone else's change:
// the file must be left alone, as a conflict.
func TestRewindKeepsTheUnsavedBufferOfAFile(t *testing.T) {
	t.Parallel()
	const script = `
name: dirty
steps:
  - tool_calls:
      - {id: e1, name: edit, args: {path: a.txt, old_string: alpha, new_string: beta}}
  - text: edited
`
	h := lsptest.Start(t, lsptest.Setup{Script: script, Files: map[string]string{"a.txt": "alpha\n"}})
	s := h.NewSession("build")
	wantStop(t, h.Prompt(s.SessionID, "turn one"), "end_turn")
	if got := h.Read("a.txt"); got != "beta\n" {
		t.Fatalf("a.txt after turn one = %q", got)
	}
	// The user opens a.txt and types, without saving.
	if err := h.Editor.OpenFile(h.Ctx, "a.txt"); err != nil {
		t.Fatal(err)
	}
	const mine = "my unsaved work\n"
	pos := workspace.Position{Line: 1, Character: 0}
	if err := h.Editor.Change(h.Ctx, "a.txt", workspace.TextEdit{Range: workspace.Range{Start: pos, End: pos}, NewText: mine}); err != nil {
		t.Fatal(err)
	}
	if buf, _ := h.Editor.Buffer("a.txt"); buf != "beta\n"+mine || !h.Editor.Dirty("a.txt") {
		t.Fatalf("buffer = %q dirty %v", buf, h.Editor.Dirty("a.txt"))
	}
	turn1 := firstUserMessage(t, h.LoadSession(s.SessionID).Messages)
	res, err := h.Rewind(agentproto.RewindParams{SessionID: s.SessionID, ToMessageID: turn1, What: "code"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rewind: %+v", res)
	buf, _ := h.Editor.Buffer("a.txt")
	if !strings.Contains(buf, mine) {
		t.Fatalf("the rewind replaced the user's unsaved buffer of a.txt: buffer = %q (disk %q), result %+v; want the buffer kept and a.txt a conflict", buf, h.Read("a.txt"), res)
	}
}
