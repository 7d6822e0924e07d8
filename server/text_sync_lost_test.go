package server_test

import (
	"testing"

	"github.com/agentls/agentls/server/internal/lsptest"
	"github.com/agentls/agentls/workspace"
)

// TestBrokenDidChangeLosesNoText: a plain editor (no documentChanges, so
// its edits carry no version to be refused by) sends a didChange whose
// range lies past the end of its buffer, as a client that dropped a change
// would. agentls can no longer know the buffer's text. Before, it kept
// the text it had, so the agent read a buffer that no longer existed and
// its edit, made for that text, was sent to land on the real one. Now the
// read and the edit of that document fail with the reason and how to
// recover, nothing is sent to the editor, the user is told, and a save
// with the text brings the document back.
func TestBrokenDidChangeLosesNoText(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Caps:  lsptest.PlainCaps(),
		Files: map[string]string{"notes.txt": "one\ntwo\n"},
		Script: `
name: lost_buffer
steps:
  - tool_calls:
      - {id: r1, name: read, args: {path: notes.txt}}
      - {id: e1, name: edit, args: {path: notes.txt, old_string: "two", new_string: "TWO"}}
  - expect:
      tool_result_contains: {r1: ["out of sync with the editor's buffer"], e1: ["out of sync with the editor's buffer", "save it in the editor"]}
    text: stopped
  - tool_calls:
      - {id: e2, name: edit, args: {path: notes.txt, old_string: "two", new_string: "TWO"}}
  - expect:
      tool_result_contains: {e2: ['"success":true']}
    text: done
`,
	})
	if err := h.Editor.Open(h.Ctx, "notes.txt", "one\ntwo\n"); err != nil {
		t.Fatal(err)
	}
	// The user types "zero" on a new first line; the editor reports it at
	// a line the buffer never had.
	if err := h.Editor.Type("notes.txt", workspace.TextEdit{NewText: "zero\n"}); err != nil {
		t.Fatal(err)
	}
	if err := h.Editor.Notify(h.Ctx, "textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": h.Editor.URI("notes.txt"), "version": 2},
		"contentChanges": []any{map[string]any{
			"range": map[string]any{"start": map[string]any{"line": 9, "character": 0}, "end": map[string]any{"line": 9, "character": 0}},
			"text":  "zero\n",
		}},
	}); err != nil {
		t.Fatal(err)
	}
	h.Await(lsptest.ShownContaining("notes.txt"))
	s := h.NewSession("build")
	wantStop(t, h.Prompt(s.SessionID, "edit the notes"), "end_turn")
	if n := len(h.Messages("workspace/applyEdit")); n != 0 {
		t.Fatalf("%d workspace/applyEdit sent for a buffer whose text agentls does not know", n)
	}
	// The editor saves (didSave with the text): the buffer is known again.
	if err := h.Editor.Save(h.Ctx, "notes.txt"); err != nil {
		t.Fatal(err)
	}
	wantStop(t, h.Prompt(s.SessionID, "try again"), "end_turn")
	if buf, _ := h.Editor.Buffer("notes.txt"); buf != "zero\none\nTWO\n" {
		t.Fatalf("buffer = %q, want the typing and the edit", buf)
	}
}
