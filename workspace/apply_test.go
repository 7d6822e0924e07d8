package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tempFiles lists leftover temporary files of writeAtomic under root.
func tempFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.Contains(d.Name(), ".agentls-") && strings.HasSuffix(d.Name(), ".tmp") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestApplyToDisk(t *testing.T) {
	ws := newTestWorkspace(t, map[string]string{"a.txt": "hello\n", "script.sh": "#!/bin/sh\n", "old/f": "f", "tree/x/y": "y"})
	r := func(p string) Path { return mustResolve(t, ws, p) }
	if err := os.Chmod(filepath.Join(ws.Root(), "script.sh"), 0o751); err != nil {
		t.Fatal(err)
	}

	edit, err := ws.ComputeEdit(r("a.txt"), EditSpec{OldString: "hello", NewString: "bye"})
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.ApplyToDisk(edit); err != nil {
		t.Fatal(err)
	}
	if got := readDiskFile(t, ws, "a.txt"); got != "bye\n" {
		t.Errorf("edit on disk: %q", got)
	}

	w, _ := ws.ComputeWrite(r("script.sh"), "#!/bin/sh\necho hi\n")
	if err := ws.ApplyToDisk(w); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(ws.Root(), "script.sh")); err != nil || fi.Mode().Perm() != 0o751 {
		t.Errorf("the file mode must be kept: %v %v", fi.Mode(), err)
	}

	create, _ := ws.ComputeWrite(r("deep/new/dir/n.txt"), "new")
	if err := ws.ApplyToDisk(create); err != nil {
		t.Fatal(err)
	}
	if got := readDiskFile(t, ws, "deep/new/dir/n.txt"); got != "new" {
		t.Errorf("create with parents: %q", got)
	}
	if err := ws.ApplyToDisk(create); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("create over an existing file: %v", err)
	}

	mv, _ := ws.ComputeMove(r("old/f"), r("moved/to/g"))
	if err := ws.ApplyToDisk(mv); err != nil {
		t.Fatal(err)
	}
	if got := readDiskFile(t, ws, "moved/to/g"); got != "f" {
		t.Errorf("moved: %q", got)
	}
	if _, err := os.Stat(filepath.Join(ws.Root(), "old/f")); !os.IsNotExist(err) {
		t.Errorf("source still there: %v", err)
	}

	mk, _ := ws.ComputeMkdir(r("made/here"))
	if err := ws.ApplyToDisk(mk); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(ws.Root(), "made/here")); err != nil || !fi.IsDir() {
		t.Errorf("mkdir: %v", err)
	}

	if err := ws.ApplyToDisk(Change{Kind: ChangeDelete, Path: r("tree")}); err == nil {
		t.Error("a non-recursive delete of a non-empty folder must fail")
	}
	rm, _ := ws.ComputeRemove(r("tree"), true)
	if err := ws.ApplyToDisk(rm); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(ws.Root(), "tree")); !os.IsNotExist(err) {
		t.Errorf("rm -r: %v", err)
	}
	rmFile, _ := ws.ComputeRemove(r("a.txt"), false)
	if err := ws.ApplyToDisk(rmFile); err != nil {
		t.Fatal(err)
	}

	touchNew, _ := ws.ComputeTouch(r("t.txt"))
	if err := ws.ApplyToDisk(touchNew); err != nil {
		t.Fatal(err)
	}
	past := time.Now().Add(-time.Hour).Truncate(time.Second)
	tp := filepath.Join(ws.Root(), "t.txt")
	if err := os.Chtimes(tp, past, past); err != nil {
		t.Fatal(err)
	}
	touch, _ := ws.ComputeTouch(r("t.txt"))
	if err := ws.ApplyToDisk(touch); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(tp); !fi.ModTime().After(past) {
		t.Errorf("touch did not update the mtime: %v", fi.ModTime())
	}

	if err := ws.ApplyToDisk(Change{Kind: "bogus", Path: r("x")}); err == nil {
		t.Error("unknown kind must fail")
	}
	if left := tempFiles(t, ws.Root()); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestApplyToDiskRenameFailure(t *testing.T) {
	ws := newTestWorkspace(t, map[string]string{"a.txt": "original\n"})
	p := mustResolve(t, ws, "a.txt")
	c, err := ws.ComputeWrite(p, strings.Repeat("new content\n", 10000))
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("rename failed")
	rename = func(string, string) error { return boom }
	renameIn = func(*os.Root, string, string) error { return boom }
	t.Cleanup(func() {
		rename = os.Rename
		renameIn = func(r *os.Root, from, to string) error { return r.Rename(from, to) }
	})

	err = ws.ApplyToDisk(c)
	if !errors.Is(err, boom) {
		t.Fatalf("ApplyToDisk error = %v, want the rename failure", err)
	}
	if got := readDiskFile(t, ws, "a.txt"); got != "original\n" {
		t.Errorf("the target was touched: %d bytes", len(got))
	}
	if left := tempFiles(t, ws.Root()); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	// A new file: nothing at all may appear.
	create, _ := ws.ComputeWrite(mustResolve(t, ws, "fresh.txt"), "x")
	if err := ws.ApplyToDisk(create); !errors.Is(err, boom) {
		t.Fatalf("create: %v", err)
	}
	if _, err := os.Stat(filepath.Join(ws.Root(), "fresh.txt")); !os.IsNotExist(err) {
		t.Errorf("half-created file: %v", err)
	}
	if left := tempFiles(t, ws.Root()); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestApplyToDiskTargetBecameFolder(t *testing.T) {
	// A real failure: the file was replaced by a folder after the change was
	// computed.
	ws := newTestWorkspace(t, map[string]string{"a.txt": "x"})
	c, err := ws.ComputeWrite(mustResolve(t, ws, "a.txt"), "y")
	if err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(ws.Root(), "a.txt")
	if err := os.Remove(abs); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(abs, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := ws.ApplyToDisk(c); err == nil {
		t.Fatal("writing over a folder must fail")
	}
	if left := tempFiles(t, ws.Root()); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if fi, err := os.Stat(filepath.Join(abs, "inside")); err != nil || !fi.IsDir() {
		t.Errorf("the folder was damaged: %v", err)
	}
}

func TestWriteAtomicMissingFolder(t *testing.T) {
	dir := t.TempDir()
	if err := writeAtomic(filepath.Join(dir, "missing", "f"), []byte("x"), 0o644); err == nil {
		t.Error("writing into a missing folder must fail (ApplyToDisk creates parents first)")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("something was created: %v", entries)
	}
}
