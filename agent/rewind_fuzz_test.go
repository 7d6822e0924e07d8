package agent

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
)

// FuzzRewindTamperedManifest: whatever keys and modes a checkpoint's
// manifest (and known.json) were edited to hold, a code rewind changes
// nothing outside the workspace — no content, no permission, no new or
// removed file, through a symlink or not — and nothing in .git/. $OUT in a
// key stands for the folder outside.
func FuzzRewindTamperedManifest(f *testing.F) {
	for _, seed := range []struct {
		key1, key2 string
		mode       uint32
	}{
		{".git/hooks/pre-commit", "keylink.txt", 0o777},
		{"outlink/secret", "../outside/secret", 0o755},
		{"$OUT/secret", "$OUT/new", 0o777},
		{"a.txt/../.git/config", ".git/new-hook", 0o700},
		{"outlink/sub/x", "gitlink/config", 0o666},
		{"keylink.txt", "sub/new.txt", 0},
	} {
		f.Add(seed.key1, seed.key2, seed.mode)
	}
	f.Fuzz(func(t *testing.T, key1, key2 string, mode uint32) {
		ctx := context.Background()
		m, _ := newTestManager(t, "name: x\nsteps:\n  - text: hi\n", &memEditor{}, nil)
		root := m.ws.Root()
		out, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		mustWrite := func(p, content string, perm fs.FileMode) {
			t.Helper()
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), perm); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(p, perm); err != nil {
				t.Fatal(err)
			}
		}
		mustWrite(filepath.Join(root, "a.txt"), "old\n", 0o644)
		mustWrite(filepath.Join(root, "keylink.txt"), "was a file\n", 0o644)
		mustWrite(filepath.Join(root, ".git", "config"), "[core]\n", 0o644)
		mustWrite(filepath.Join(root, ".git", "hooks", "pre-commit"), "#!/bin/sh\n", 0o644)
		mustWrite(filepath.Join(out, "secret"), "secret\n", 0o600)
		mustWrite(filepath.Join(out, "sub", "x"), "x\n", 0o600)
		s := newTestSession(t, m, "plan")
		if _, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "hello"}); err != nil {
			t.Fatal(err)
		}
		to := s.Messages()[0].ID
		mustWrite(filepath.Join(root, "a.txt"), "new\n", 0o644)
		if err := os.Remove(filepath.Join(root, "keylink.txt")); err != nil {
			t.Fatal(err)
		}
		for link, target := range map[string]string{"keylink.txt": filepath.Join(out, "secret"), "outlink": out, "gitlink": ".git"} {
			if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
				t.Fatal(err)
			}
		}

		store := m.checkpoints
		man, err := store.Load(s.ID(), to)
		if err != nil {
			t.Fatal(err)
		}
		entry := man["a.txt"] // an object that exists
		entry.Mode = mode
		known := map[string]string{"a.txt": checkpointDigest("new\n")}
		for _, k := range []string{key1, key2} {
			k = strings.ReplaceAll(k, "$OUT", out)
			if k == "" || k == "a.txt" {
				continue
			}
			man[k] = entry
			known[k] = ""
		}
		writeJSONFile(t, filepath.Join(store.Dir(), s.ID(), to+".json"), man)
		if err := store.UpdateKnown(s.ID(), known); err != nil {
			t.Fatal(err)
		}
		beforeOut, beforeGit := treeOf(t, out), treeOf(t, filepath.Join(root, ".git"))
		if _, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: to, What: agentproto.RewindCode}); err != nil {
			return // refused whole: nothing to check beyond the trees below
		}
		if got := treeOf(t, out); got != beforeOut {
			t.Fatalf("keys %q %q mode %o: the rewind changed the folder outside:\nbefore:\n%s\nafter:\n%s", key1, key2, mode, beforeOut, got)
		}
		if got := treeOf(t, filepath.Join(root, ".git")); got != beforeGit {
			t.Fatalf("keys %q %q mode %o: the rewind changed .git/:\nbefore:\n%s\nafter:\n%s", key1, key2, mode, beforeGit, got)
		}
	})
}

// treeOf is every path under dir (symlinks not followed) with its mode,
// modification time and content.
func treeOf(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b.WriteString(rel + " " + fi.Mode().String())
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b.WriteString(" " + fi.ModTime().UTC().Format(time.RFC3339Nano) + " " + string(data))
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
