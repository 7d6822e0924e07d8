package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
)

// FuzzAutoRunNeverAppliedUnasked: whatever path a BUILD tool call that
// changes files names (as the target, or a move's or a delete's source), in
// a workspace with auto-run files, folders and symlinks to and from them,
// the editor that cannot ask is handed no change whose target or source is
// a file the editor or shell runs by itself (guard.IsAutoRun on the
// resolved path) or where a symlink so named leads (at any depth: sub/.vscode
// → real2, sub/.nvim.lua → notes.txt), and nothing at all when the name as
// given is one.
func FuzzAutoRunNeverAppliedUnasked(f *testing.F) {
	for _, seed := range []struct {
		kind uint8
		path string
	}{
		{0, ".vscode/tasks.json"}, {1, "cfg/settings.json"}, {2, ".envrc"}, {3, ".IDEA"}, {4, "src/../.zed"},
		{5, "sub"}, {0, "x.Code-Workspace"}, {1, ".Vscode/./tasks.json"}, {2, "link/a.json"}, {3, "a.txt"},
		{1, "notes.txt"}, {0, "real2/tasks.json"}, {3, "real2/x"}, {5, "notes.txt"}, {2, "node_modules/p/.envrc"},
	} {
		f.Add(seed.kind, seed.path)
	}
	ed := &memEditor{} // no surface: an asked change is declined
	m, _ := newTestManager(f, "name: f\nsteps:\n  - text: x\n", ed, nil)
	root := m.ws.Root()
	setUpFiles(f, root, map[string]string{
		".vscode/settings.json": "{}", ".envrc": "x", "sub/.dir-locals.el": "x", "a.txt": "a", "cfg/settings.json": "{}", "notes.txt": "{}",
	}, []string{"src", ".idea", "real", "real2", "node_modules/p"}, map[string]string{"link": ".vscode", ".helix": "real",
		"sub/.nvim.lua": "../notes.txt", "sub/.vscode": "../real2", "node_modules/p/.envrc": "../../a.txt"})
	s := newTestSession(f, m, "build")
	f.Fuzz(func(t *testing.T, kind uint8, p string) {
		var name string
		var args any
		switch kind % 6 {
		case 0:
			name, args = "write", map[string]any{"path": p, "content": "x"}
		case 1:
			name, args = "edit", map[string]any{"path": p, "old_string": "{}", "new_string": "{\"a\":1}"}
		case 2:
			name, args = "rm", map[string]any{"path": p, "recursive": true}
		case 3:
			name, args = "mv", map[string]any{"from": "a.txt", "to": p}
		case 4:
			name, args = "mkdir", map[string]any{"path": p}
		case 5:
			name, args = "mv", map[string]any{"from": p, "to": "moved"}
		}
		raw, err := json.Marshal(args)
		if err != nil {
			t.Fatal(err)
		}
		ed.mu.Lock()
		ed.applied = nil
		ed.mu.Unlock()
		s.runCall(context.Background(), agentproto.ToolCall{ID: "c", Name: name, Arguments: string(raw)}, false)
		ed.mu.Lock()
		applied := ed.applied
		ed.mu.Unlock()
		if rel := givenRel(m.ws, p); rel != "" && guard.IsAutoRun(rel) && len(applied) != 0 {
			t.Fatalf("%s %q (an auto-run name as given) applied unasked: %+v", name, p, applied)
		}
		roots, _ := new(autoRunLinks).roots(m.ws.Folders()) // a walk of its own, not the session's index
		for _, req := range applied {
			for _, c := range req.Changes {
				for _, tp := range c.Targets() {
					if guard.IsAutoRun(tp.Rel) || underAutoRunRoot(roots, tp.Abs) != "" || deepLinked(tp.Rel) {
						t.Fatalf("%s %q: %s of %s applied unasked", name, p, c.Kind, tp.Rel)
					}
				}
			}
		}
		restore(t, root) // the next input starts from the same files
	})
}

// restore puts back the fixture files a fuzzed call moved or removed.
func restore(t *testing.T, root string) {
	t.Helper()
	for name, text := range map[string]string{"a.txt": "a", ".envrc": "x", "sub/.dir-locals.el": "x", "cfg/settings.json": "{}", "notes.txt": "{}"} {
		p := filepath.Join(root, name)
		if _, err := os.Lstat(p); err == nil {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// deepLinked reports a path the fixture's deep auto-run symlinks lead to
// (sub/.nvim.lua → notes.txt, sub/.vscode → real2), known without
// the index.
func deepLinked(rel string) bool {
	rel = strings.ToLower(rel)
	return rel == "notes.txt" || rel == "real2" || strings.HasPrefix(rel, "real2/")
}
