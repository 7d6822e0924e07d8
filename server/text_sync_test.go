package server_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/server/internal/lsptest"
	"github.com/agentls/agentls/workspace"
)

func pos(line, char uint32) workspace.Position {
	return workspace.Position{Line: line, Character: char}
}

// TestUTF16EditOfUnsavedBuffer: positions are UTF-16 code units, the agent
// reads the unsaved buffer, and its edit lands at the exact range.
func TestUTF16EditOfUnsavedBuffer(t *testing.T) {
	t.Parallel()
	const disk = "héllo 🌍 world\n日本語テキスト\n"
	h := lsptest.Start(t, lsptest.Setup{
		Files: map[string]string{"a.txt": disk},
		Script: `
name: utf16
steps:
  - tool_calls:
      - {id: r, name: read, args: {path: a.txt}}
  - expect:
      tool_result_contains: {r: ["héllo 🌍! world", "日本goテキスト"]}
    tool_calls:
      - {id: e, name: edit, args: {path: a.txt, old_string: world, new_string: there}}
      - {id: e2, name: edit, args: {path: a.txt, old_string: テキスト, new_string: 🎉}}
  - text: done
    expect:
      tool_result_contains: {e: ["\"success\":true"], e2: ["\"success\":true"]}
`,
	})
	if err := h.Editor.Open(h.Ctx, "a.txt", disk); err != nil {
		t.Fatal(err)
	}
	// "héllo " is 6 UTF-16 units and 🌍 two more: insert after the globe.
	if err := h.Editor.Change(h.Ctx, "a.txt", workspace.TextEdit{Range: workspace.Range{Start: pos(0, 8), End: pos(0, 8)}, NewText: "!"}); err != nil {
		t.Fatal(err)
	}
	if err := h.Editor.Change(h.Ctx, "a.txt", workspace.TextEdit{Range: workspace.Range{Start: pos(1, 2), End: pos(1, 3)}, NewText: "go"}); err != nil {
		t.Fatal(err)
	}
	s := h.NewSession("build")
	if r := h.Prompt(s.SessionID, "edit"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", r)
	}
	var ranges []string
	for _, raw := range h.Messages("workspace/applyEdit") {
		var p struct {
			Edit struct {
				DocumentChanges []struct {
					TextDocument struct {
						Version *int32 `json:"version"`
					} `json:"textDocument"`
					Edits []workspace.TextEdit `json:"edits"`
				} `json:"documentChanges"`
			} `json:"edit"`
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		for _, dc := range p.Edit.DocumentChanges {
			if dc.TextDocument.Version == nil {
				t.Fatal("edit of an open document without its version")
			}
			for _, e := range dc.Edits {
				ranges = append(ranges, fmt.Sprintf("%d:%d-%d:%d=%s", e.Range.Start.Line, e.Range.Start.Character, e.Range.End.Line, e.Range.End.Character, e.NewText))
			}
		}
	}
	want := "0:10-0:15=there 1:4-1:8=🎉"
	if got := strings.Join(ranges, " "); got != want {
		t.Fatalf("edit ranges = %q, want %q", got, want)
	}
	if got, _ := h.Editor.Buffer("a.txt"); got != "héllo 🌍! there\n日本go🎉\n" {
		t.Fatalf("buffer = %q", got)
	}
	if got := h.Read("a.txt"); got != disk {
		t.Fatalf("disk changed under an open buffer: %q", got)
	}
}

// TestIncrementalSyncKeepsOrder sends 2000 incremental changes and checks the
// agent reads the buffer exactly as the editor has it.
func TestIncrementalSyncKeepsOrder(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Files: map[string]string{"log.txt": ""},
		Script: `
name: order
steps:
  - tool_calls:
      - {id: r, name: read, args: {path: log.txt, limit: 5000}}
  - text: done
`,
	})
	if err := h.Editor.Open(h.Ctx, "log.txt", ""); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2000; i++ {
		line := uint32(i)
		if err := h.Editor.Change(h.Ctx, "log.txt", workspace.TextEdit{Range: workspace.Range{Start: pos(line, 0), End: pos(line, 0)}, NewText: fmt.Sprintf("line %d\n", i)}); err != nil {
			t.Fatal(err)
		}
	}
	s := h.NewSession("plan")
	if r := h.Prompt(s.SessionID, "read"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", r)
	}
	want, _ := h.Editor.Buffer("log.txt")
	var got string
	for _, u := range lsptest.Updates[agent.UpdateToolCallDone](h, "tool_call_update") {
		var res struct {
			Result struct {
				Content string `json:"content"`
			} `json:"result"`
		}
		if err := json.Unmarshal(u.RawOutput, &res); err != nil {
			t.Fatal(err)
		}
		got = res.Result.Content
	}
	for i, line := range strings.Split(strings.TrimSuffix(want, "\n"), "\n") {
		if !strings.Contains(got, fmt.Sprintf("%6d\t%s\n", i+1, line)) {
			t.Fatalf("read result lacks line %d %q (order lost?)", i+1, line)
		}
	}
}

// TestSymlinkedRootReadsAndEditsTheBuffer: on a workspace reached through a
// symlink, the agent reads the editor's unsaved buffer (not the disk), and
// its edit is computed against that buffer and sent back under the editor's
// URI with the buffer's version.
func TestSymlinkedRootReadsAndEditsTheBuffer(t *testing.T) {
	t.Parallel()
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	const disk = "alpha\nbeta\n"
	h := lsptest.Start(t, lsptest.Setup{
		Dir:   link,
		Files: map[string]string{"a.txt": disk},
		Script: `
name: symlinked-root
steps:
  - tool_calls:
      - {id: r, name: read, args: {path: a.txt}}
  - expect:
      tool_result_contains: {r: ["alpha unsaved"]}
    tool_calls:
      - {id: e, name: edit, args: {path: a.txt, old_string: "alpha unsaved", new_string: gamma}}
  - text: done
    expect:
      tool_result_contains: {e: ["\"success\":true"]}
`,
	})
	if err := h.Editor.Open(h.Ctx, "a.txt", disk); err != nil {
		t.Fatal(err)
	}
	if err := h.Editor.Change(h.Ctx, "a.txt", workspace.TextEdit{Range: workspace.Range{Start: pos(0, 5), End: pos(0, 5)}, NewText: " unsaved"}); err != nil {
		t.Fatal(err)
	}
	s := h.NewSession("build")
	if r := h.Prompt(s.SessionID, "edit"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", r)
	}
	edits := h.Messages("workspace/applyEdit")
	if len(edits) != 1 {
		t.Fatalf("%d applyEdit requests, want 1", len(edits))
	}
	var p struct {
		Edit struct {
			DocumentChanges []struct {
				TextDocument struct {
					URI     string `json:"uri"`
					Version *int32 `json:"version"`
				} `json:"textDocument"`
			} `json:"documentChanges"`
		} `json:"edit"`
	}
	if err := json.Unmarshal(edits[0], &p); err != nil || len(p.Edit.DocumentChanges) != 1 {
		t.Fatalf("applyEdit params %s: %v", edits[0], err)
	}
	doc := p.Edit.DocumentChanges[0].TextDocument
	if want := "file://" + filepath.ToSlash(filepath.Join(link, "a.txt")); doc.URI != want {
		t.Errorf("edit URI = %s, want the editor's %s", doc.URI, want)
	}
	if doc.Version == nil || *doc.Version != 2 {
		t.Errorf("edit version = %v, want the buffer's 2", doc.Version)
	}
	if got, _ := h.Editor.Buffer("a.txt"); got != "gamma\nbeta\n" {
		t.Fatalf("buffer = %q", got)
	}
	if got := h.Read("a.txt"); got != disk {
		t.Fatalf("disk changed under an open buffer: %q", got)
	}
}
