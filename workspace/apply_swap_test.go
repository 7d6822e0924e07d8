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
