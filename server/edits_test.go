package server_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/server/internal/lsptest"
)

func writeFile(dir, name, content string) error {
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(content), 0o644)
}

const moveScript = `
name: files
steps:
  - tool_calls:
      - {id: w, name: write, args: {path: made.txt, content: "new\n"}}
      - {id: m, name: mv, args: {from: a.txt, to: moved/a.txt}}
      - {id: r, name: rm, args: {path: b.txt}}
      - {id: d, name: mkdir, args: {path: empty/dir}}
  - text: done
    expect:
      tool_result_contains: {w: ["\"success\":true"], m: ["\"success\":true"], r: ["\"success\":true"], d: ["\"success\":true"]}
`

// TestResourceOperations: create/rename/delete go to the editor only when it
// lists them in resourceOperations; otherwise, and with edits: disk, the
// server changes the disk itself. Either way the result is the same.
func TestResourceOperations(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		caps     map[string]any
		initOpts map[string]any
		wantOps  []string // resource operation kinds sent in applyEdit
	}{
		{"client with resource operations", lsptest.FullCaps(), nil, []string{`"kind":"create"`, `"kind":"rename"`, `"kind":"delete"`}},
		{"client without resource operations", map[string]any{"workspace": map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true}}}, nil, nil},
		{"edits: disk", lsptest.FullCaps(), map[string]any{"edits": "disk"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := lsptest.Start(t, lsptest.Setup{
				Script: moveScript, Caps: tc.caps, InitOpts: tc.initOpts,
				Files: map[string]string{"a.txt": "a\n", "b.txt": "b\n"},
			})
			s := h.NewSession("build")
			if r := h.Prompt(s.SessionID, "go"); r.StopReason != "end_turn" {
				t.Fatalf("prompt = %+v (%s)", r, r.Error)
			}
			if got := h.Read("made.txt"); got != "new\n" {
				t.Fatalf("made.txt = %q", got)
			}
			if got := h.Read("moved/a.txt"); got != "a\n" {
				t.Fatalf("moved/a.txt = %q", got)
			}
			for _, gone := range []string{"a.txt", "b.txt"} {
				if _, err := os.Stat(filepath.Join(h.Dir, gone)); !os.IsNotExist(err) {
					t.Fatalf("%s still exists", gone)
				}
			}
			if fi, err := os.Stat(filepath.Join(h.Dir, "empty", "dir")); err != nil || !fi.IsDir() {
				t.Fatalf("empty/dir: %v", err)
			}
			var sent strings.Builder
			for _, raw := range h.Messages("workspace/applyEdit") {
				sent.Write(raw)
			}
			for _, op := range []string{`"kind":"create"`, `"kind":"rename"`, `"kind":"delete"`} {
				want := false
				for _, w := range tc.wantOps {
					want = want || w == op
				}
				if got := strings.Contains(sent.String(), op); got != want {
					t.Errorf("applyEdit with %s: %v, want %v", op, got, want)
				}
			}
		})
	}
}
