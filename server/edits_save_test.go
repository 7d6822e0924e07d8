package server_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/server/internal/lsptest"
)

// editAndCatScript edits the open main.go, then runs cat on it: the step
// after fails unless the command saw the edit.
const editAndCatScript = `
name: edit_then_cat
steps:
  - tool_calls:
      - {id: e1, name: edit, args: {path: main.go, old_string: "package main", new_string: "package edited"}}
  - tool_calls:
      - {id: c1, name: run, args: {command: "cat main.go"}}
  - text: done
    expect:
      tool_result_contains: {c1: ["package edited"]}
`

// TestPlainEditorEditsAreSaved: an editor without savesEdits (Neovim
// without the plugin) gets the agent's edit to an open buffer through
// workspace/applyEdit, and the server writes the file too, so the disk
// has the new text and a command run next sees it.
func TestPlainEditorEditsAreSaved(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Caps:     lsptest.PlainCaps(),
		Files:    map[string]string{"main.go": "package main\n"},
		InitOpts: map[string]any{"run": map[string]any{"allow": []string{"cat main.go"}}},
		Script:   editAndCatScript,
	})
	if err := h.Editor.Open(h.Ctx, "main.go", "package main\n"); err != nil {
		t.Fatal(err)
	}
	s := h.NewSession("build")
	wantStop(t, h.Prompt(s.SessionID, "edit and test"), "end_turn")
	if buf, ok := h.Editor.Buffer("main.go"); !ok || buf != "package edited\n" {
		t.Fatalf("the edit did not reach the open buffer: %q (open %v)", buf, ok)
	}
	if got := h.Read("main.go"); got != "package edited\n" {
		t.Fatalf("disk has %q after the edit, want the edited text", got)
	}
	if h.Model.Remaining() != 0 {
		t.Fatalf("script has %d steps left", h.Model.Remaining())
	}
}

// TestSavesEditsEditorKeepsItsBuffer: an editor that declared savesEdits
// saves the buffer itself; the server leaves the disk alone.
func TestSavesEditsEditorKeepsItsBuffer(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Files: map[string]string{"main.go": "package main\n"},
		Script: `
name: edit_only
steps:
  - tool_calls:
      - {id: e1, name: edit, args: {path: main.go, old_string: "package main", new_string: "package edited"}}
  - text: done
`,
	})
	if err := h.Editor.Open(h.Ctx, "main.go", "package main\n"); err != nil {
		t.Fatal(err)
	}
	s := h.NewSession("build")
	wantStop(t, h.Prompt(s.SessionID, "edit"), "end_turn")
	if buf, _ := h.Editor.Buffer("main.go"); buf != "package edited\n" {
		t.Fatalf("buffer %q", buf)
	}
	data, err := os.ReadFile(filepath.Join(h.Dir, "main.go"))
	if err != nil || string(data) != "package main\n" {
		t.Fatalf("disk %q (%v): the server wrote a file the editor saves itself", data, err)
	}
}
