package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestApplyToDiskAfterASwappedFolder: a change is judged (by the guard) on
// its resolved path, then written. When a folder on that path is replaced
// by a symbolic link in between (another process racing the write), the
// change lands nowhere the link leads: it fails, and the folder outside is
// as it was — no file written, created, touched, moved or removed there.
// The change's own folder inside the workspace is where it is written.
func TestApplyToDiskAfterASwappedFolder(t *testing.T) {
	for _, tc := range []struct {
		name    string
		compute func(ws *Workspace) (Change, error)
		swap    string // the folder (or file) replaced by a link to the same name outside
	}{
		{"edit a plan", func(ws *Workspace) (Change, error) {
			return ws.ComputeWrite(mustResolveNoT(ws, "plans/x.plan"), "new\n")
		}, "plans"},
		{"create a plan", func(ws *Workspace) (Change, error) {
			return ws.ComputeWrite(mustResolveNoT(ws, "plans/new.plan"), "new\n")
		}, "plans"},
		{"create a plan in a new folder", func(ws *Workspace) (Change, error) {
			return ws.ComputeWrite(mustResolveNoT(ws, "plans/sub/deeper/new.plan"), "new\n")
		}, "plans"},
		{"touch a plan", func(ws *Workspace) (Change, error) {
			return ws.ComputeTouch(mustResolveNoT(ws, "plans/x.plan"))
		}, "plans/x.plan"},
		{"remove a plan", func(ws *Workspace) (Change, error) {
			return ws.ComputeRemove(mustResolveNoT(ws, "plans/x.plan"), false)
		}, "plans"},
		{"move a plan", func(ws *Workspace) (Change, error) {
			return ws.ComputeMove(mustResolveNoT(ws, "x.plan"), mustResolveNoT(ws, "plans/moved.plan"))
		}, "plans"},
		{"make a folder", func(ws *Workspace) (Change, error) {
			return ws.ComputeMkdir(mustResolveNoT(ws, "plans/newdir/deeper"))
		}, "plans"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := newTestWorkspace(t, map[string]string{"plans/x.plan": "old\n", "x.plan": "top\n"})
			outside, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			// The link leads to a folder (or file) of the same name outside,
			// holding files of the names the change would touch.
			writeTree(t, outside, map[string]string{"plans/x.plan": "outside\n", "plans/sub/": "", "x.plan": "outside top\n"})
			old := time.Now().Add(-time.Hour)
			for _, p := range []string{"plans/x.plan", "x.plan"} {
				if err := os.Chtimes(filepath.Join(outside, p), old, old); err != nil {
					t.Fatal(err)
				}
			}
			c, err := tc.compute(ws)
			if err != nil {
				t.Fatal(err)
			}
			before := outsideTree(t, outside)
			// The swap, after the check and before the write.
			swapped := filepath.Join(ws.Root(), filepath.FromSlash(tc.swap))
			if err := os.Rename(swapped, swapped+".moved"); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(outside, filepath.FromSlash(tc.swap)), swapped); err != nil {
				t.Fatal(err)
			}
			err = ws.ApplyToDisk(c)
			if after := outsideTree(t, outside); after != before {
				t.Fatalf("the change went through the swapped link (err %v):\nbefore:\n%s\nafter:\n%s", err, before, after)
			}
			if err == nil {
				t.Fatal("the change succeeded through a swapped folder")
			}
			if !strings.Contains(err.Error(), "symbolic link") && !strings.Contains(err.Error(), "changed since") && !strings.Contains(err.Error(), "escapes") {
				t.Fatalf("the error does not say why: %v", err)
			}
		})
	}
}

func mustResolveNoT(ws *Workspace, p string) Path {
	r, err := ws.Resolve(p)
	if err != nil {
		panic(err)
	}
	return r
}

// outsideTree lists dir's paths with mode, modification time and content.
func outsideTree(t *testing.T, dir string) string {
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

// FuzzApplyToDiskSwap: whatever change is computed (kind, target, a move's
// source) and whichever element of its path is swapped for a symbolic link
// to the same name outside after it was computed, applying it on disk
// changes nothing outside the workspace.
func FuzzApplyToDiskSwap(f *testing.F) {
	for _, seed := range []struct {
		kind         uint8
		target, from string
		swap         uint8
	}{
		{0, "plans/x.plan", "", 0}, {1, "plans/new.plan", "", 0}, {1, "plans/sub/deep/new.plan", "", 1},
		{2, "plans/x.plan", "", 1}, {3, "plans/sub", "", 0}, {4, "plans/moved.plan", "x.plan", 0},
		{5, "plans/newdir/deeper", "", 0}, {0, "plans/sub/y.plan", "", 1}, {3, "plans/sub/y.plan", "", 2},
	} {
		f.Add(seed.kind, seed.target, seed.from, seed.swap)
	}
	f.Fuzz(func(t *testing.T, kind uint8, target, from string, swap uint8) {
		if !filepath.IsLocal(target) || from != "" && !filepath.IsLocal(from) {
			return
		}
		tree := map[string]string{"plans/x.plan": "old\n", "plans/sub/y.plan": "y\n", "x.plan": "top\n", "src/main.go": "package main\n"}
		ws := newTestWorkspace(t, tree)
		outside, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		writeTree(t, outside, tree)
		p, err := ws.Resolve(target)
		if err != nil {
			return
		}
		var c Change
		switch kind % 6 {
		case 0:
			c, err = ws.ComputeWrite(p, "new\n")
		case 1:
			c, err = ws.ComputeWrite(p, "created\n")
		case 2:
			c, err = ws.ComputeTouch(p)
		case 3:
			c, err = ws.ComputeRemove(p, true)
		case 4:
			var src Path
			if src, err = ws.Resolve(from); err == nil {
				c, err = ws.ComputeMove(src, p)
			}
		case 5:
			c, err = ws.ComputeMkdir(p)
		}
		if err != nil {
			return
		}
		// Swap the swap-th element of the target's path (from the top).
		parts := strings.Split(filepath.ToSlash(filepath.Clean(target)), "/")
		swapped := strings.Join(parts[:int(swap)%len(parts)+1], "/")
		abs := filepath.Join(ws.Root(), filepath.FromSlash(swapped))
		if _, err := os.Lstat(abs); err != nil {
			return // nothing there to swap
		}
		if err := os.Rename(abs, abs+".moved"); err != nil {
			return
		}
		if err := os.Symlink(filepath.Join(outside, filepath.FromSlash(swapped)), abs); err != nil {
			t.Fatal(err)
		}
		before := outsideTree(t, outside)
		err = ws.ApplyToDisk(c)
		if after := outsideTree(t, outside); after != before {
			t.Fatalf("%s of %s (from %q), %s swapped: the change went outside (err %v):\nbefore:\n%s\nafter:\n%s", c.Kind, target, from, swapped, err, before, after)
		}
	})
}
