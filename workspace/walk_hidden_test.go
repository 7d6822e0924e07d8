package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHideFromWalks: ls, glob and grep over a folder that holds agentls's
// state and configuration folders never list or search them.
func TestHideFromWalks(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"notes.txt":                         "secret-free\n",
		".local/state/agentls/trust/a.json": "sha256 secret\n",
		".config/agentls/config.yaml":       "api_key: secret\n",
		".config/other/x.txt":               "secret visible\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	ws.HideFromWalks(filepath.Join(dir, ".local", "state", "agentls"), filepath.Join(dir, ".config", "agentls"), "relative/ignored")
	root, err := ws.Resolve(".")
	if err != nil {
		t.Fatal(err)
	}
	files, err := ws.Glob("**", root)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := ws.List(root, 5)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ws.Grep(context.Background(), GrepOptions{Pattern: "secret", Base: root})
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	seen = append(seen, files...)
	for _, e := range entries {
		seen = append(seen, e.Path)
	}
	for _, m := range res.Matches {
		seen = append(seen, m.Path)
	}
	for _, p := range seen {
		if strings.Contains(p, "agentls") {
			t.Errorf("a walk met %s", p)
		}
	}
	if !slices.Contains(files, ".config/other/x.txt") {
		t.Errorf("glob = %q, want the other config folder listed", files)
	}
}
