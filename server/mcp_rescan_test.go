package server_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
	"github.com/agentls/agentls/workspace"
)

// fsEntry is the pinned @modelcontextprotocol/server-filesystem
// (scripts/install-mcp), or the test is skipped (failed under CI).
func fsEntry(t *testing.T) string {
	t.Helper()
	entry, err := filepath.Abs("../mcpclient/testdata/servers/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
	if err != nil {
		t.Fatal(err)
	}
	_, nodeErr := exec.LookPath("node")
	_, statErr := os.Stat(entry)
	if nodeErr != nil || statErr != nil {
		why := fmt.Sprintf("node (%v) or the npm MCP servers (%v) missing: run scripts/install-mcp", nodeErr, statErr)
		if os.Getenv("CI") != "" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	return entry
}

// TestMCPWriteRefreshesTheOverlay: after the real filesystem server's
// write_file (build mode, allowed), a file open in the editor with no
// unsaved change is reloaded: the read tool sees the server's content, not
// the buffer's old text; a file whose buffer holds unsaved changes keeps
// them, and the user is warned that the file changed under it.
func TestMCPWriteRefreshesTheOverlay(t *testing.T) {
	entry := fsEntry(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	notes, draft := filepath.Join(dir, "notes.txt"), filepath.Join(dir, "draft.txt")
	h := lsptest.Start(t, lsptest.Setup{
		Dir:   dir,
		Files: map[string]string{"notes.txt": "original\n", "draft.txt": "draft\n"},
		Script: fmt.Sprintf(`
steps:
  - tool_calls:
      - {id: w1, name: mcp__fs__write_file, args: {path: %q, content: "rewritten by the server\n"}}
  - tool_calls:
      - {id: r1, name: read, args: {path: notes.txt}}
  - tool_calls:
      - {id: w2, name: mcp__fs__write_file, args: {path: %q, content: "server text\n"}}
  - tool_calls:
      - {id: r2, name: read, args: {path: draft.txt}}
  - text: "Done."
    expect:
      tool_result_contains: {w1: ["Successfully wrote"], r1: ["rewritten by the server"], r2: ["my unsaved line"]}
`, notes, draft),
		InitOpts: map[string]any{"mcp": map[string]any{"servers": map[string]any{"fs": map[string]any{"command": "node", "args": []any{entry, dir}}}}},
		Handlers: lspclient.Handlers{AskUser: decide("allow_always")},
	})
	if err := h.Editor.Open(h.Ctx, "notes.txt", "original\n"); err != nil {
		t.Fatal(err)
	}
	if err := h.Editor.Open(h.Ctx, "draft.txt", "draft\n"); err != nil {
		t.Fatal(err)
	}
	end := workspace.Position{Line: 1, Character: 0}
	if err := h.Editor.Change(h.Ctx, "draft.txt", workspace.TextEdit{Range: workspace.Range{Start: end, End: end}, NewText: "my unsaved line\n"}); err != nil {
		t.Fatal(err)
	}
	s := h.NewSession("build")
	wantStop(t, h.Prompt(s.SessionID, "go"), "end_turn")
	if b, _ := os.ReadFile(draft); string(b) != "server text\n" {
		t.Errorf("draft.txt on disk = %q", b)
	}
	warned := false
	for _, l := range h.LogLines() {
		if strings.Contains(l, "mcp__fs__write_file changed draft.txt on disk while your editor holds unsaved changes") {
			warned = true
		}
		if strings.Contains(l, "changed notes.txt") {
			t.Errorf("a clean buffer was warned about: %q", l)
		}
	}
	if !warned {
		t.Errorf("no warning about draft.txt's unsaved buffer; log lines: %q", h.LogLines())
	}
}
