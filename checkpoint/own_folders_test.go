package checkpoint

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStoreKeepsToItsOwnFolders: a repository can ship anything under
// .agentls/, symbolic links included. A link in place of the store's
// folders or of its prune stamp must not make a checkpoint write, truncate
// or prune (remove) anything where the link leads: not a file of the
// user's outside the workspace, not .git/. Bypass rows.
func TestStoreKeepsToItsOwnFolders(t *testing.T) {
	digestName := strings.Repeat("ab", 32) // named like an object
	for _, tc := range []struct {
		name string
		link string // under the workspace root, pointing at the victim folder (or, with file, the victim file)
		file bool   // the link points at the victim file itself
	}{
		{name: "prune stamp linked to a file outside", link: ".agentls/checkpoints/.pruned", file: true},
		{name: "store lock linked to a file outside", link: ".agentls/checkpoints/.lock", file: true},
		{name: "objects folder linked outside", link: ".agentls/checkpoints/objects"},
		{name: "checkpoints folder linked outside", link: ".agentls/checkpoints"},
		{name: "state folder linked outside", link: ".agentls"},
		{name: "objects folder linked into .git", link: ".agentls/checkpoints/objects"},
		{name: "session folder linked outside", link: ".agentls/checkpoints/s1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			s, root := newStore(t, map[string]string{"a.txt": "v1\n"}, Retention{PerSession: 1, MaxBytes: 1 << 20})
			victim := filepath.Join(t.TempDir(), "victim")
			if strings.Contains(tc.name, ".git") {
				victim = filepath.Join(root, ".git", "objects")
			}
			old := time.Now().Add(-3 * time.Hour)
			files := map[string]string{
				"precious.txt":                      "precious\n",
				digestName:                          "named like an object\n",
				"objects/" + digestName:             "deeper\n",
				"checkpoints/objects/" + digestName: "deeper still\n",
			}
			for name, content := range files {
				p := filepath.Join(victim, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(p, old, old); err != nil {
					t.Fatal(err)
				}
			}
			target := victim
			if tc.file {
				target = filepath.Join(victim, "precious.txt")
			}
			link := filepath.Join(root, filepath.FromSlash(tc.link))
			if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
			before := listTree(t, victim)
			var errs []string
			for i, content := range []string{"v2\n", "v3\n", "v4\n"} {
				if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
				if _, err := s.Save(ctx, "s1", "c"+string(rune('1'+i))); err != nil {
					errs = append(errs, err.Error())
				}
			}
			if after := listTree(t, victim); after != before {
				t.Fatalf("the checkpoints changed what %s leads to:\nbefore:\n%s\nafter:\n%s\n(save errors: %v)", tc.link, before, after, errs)
			}
			if !tc.file && (len(errs) == 0 || !strings.Contains(errs[0], "symbolic link")) {
				t.Fatalf("save through the link %s: errors %v, want one naming the symbolic link", tc.link, errs)
			}
			if tc.file && len(errs) > 0 {
				t.Fatalf("a linked %s failed the save: %v", tc.link, errs)
			}
		})
	}
}

// listTree is every path under dir with its content and mode, sorted.
func listTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b.WriteString(rel + " " + fi.Mode().String() + " " + fi.ModTime().UTC().Format(time.RFC3339Nano))
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b.WriteString(" " + string(data))
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// FuzzStoreOwnFolders: a symbolic link a repository put anywhere under
// .agentls/ (a folder of the store, a manifest, known.json, the digest
// cache, an object, the prune stamp, the lock), to a folder or a file of the
// user's, never makes checkpoints and their prunes write, truncate or
// remove anything where it leads.
func FuzzStoreOwnFolders(f *testing.F) {
	for _, seed := range []string{
		".agentls", ".agentls/checkpoints", ".agentls/checkpoints/objects", ".agentls/checkpoints/s1",
		".agentls/checkpoints/.pruned", ".agentls/checkpoints/.lock", ".agentls/checkpoints/.hashes", ".agentls/checkpoints/s1/known.json",
		".agentls/checkpoints/s1/c1.json", ".agentls/checkpoints/s1/c2.json", ".agentls/checkpoints/objects/" + Digest([]byte("v2\n")),
	} {
		f.Add(seed, false)
		f.Add(seed, true)
	}
	f.Fuzz(func(t *testing.T, at string, toFile bool) {
		at = filepath.Clean(filepath.FromSlash(at))
		if !filepath.IsLocal(at) || !strings.HasPrefix(at, ".agentls") {
			return
		}
		ctx := context.Background()
		s, root := newStore(t, map[string]string{"a.txt": "v1\n"}, Retention{PerSession: 1, MaxBytes: 1 << 20})
		s.now = func() time.Time { return time.Now().Add(2 * time.Hour) } // every object past its grace
		victim := t.TempDir()
		old := time.Now().Add(-3 * time.Hour)
		for _, name := range []string{"precious.txt", Digest([]byte("v2\n")), "objects/" + Digest([]byte("v1\n"))} {
			p := filepath.Join(victim, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("precious "+name+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
		target := victim
		if toFile {
			target = filepath.Join(victim, "precious.txt")
		}
		link := filepath.Join(root, at)
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			return // a name below a file: no link to make
		}
		if err := os.Symlink(target, link); err != nil {
			return
		}
		before := listTree(t, victim)
		for i, content := range []string{"v2\n", "v3\n", "v2\n"} {
			if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _ = s.Save(ctx, "s1", "c"+string(rune('1'+i)))
			_ = s.UpdateKnown("s1", Known{"a.txt": Digest([]byte(content))})
		}
		if after := listTree(t, victim); after != before {
			t.Fatalf("a link at %s (to a file: %v) let the store change what it leads to:\nbefore:\n%s\nafter:\n%s", at, toFile, before, after)
		}
	})
}
