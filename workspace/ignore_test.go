package workspace

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestAGitignoreOfRepeatedDoubleStarsDoesNotHangTheWalk: a repository's
// .gitignore is anyone's text, and so is its folder tree. A pattern of
// repeated "**" segments ("**/a/**/a/…/c") against a deep path once made
// the matcher try every way of spreading the path over the "**"s, so one
// check of one folder took minutes, and every walk (the checkpoint before
// each turn, grep, glob, ls) hung. Git's own matcher answers such a line
// at once. The walk of this small tree must finish in seconds, and the
// line must still ignore the file it names.
func TestAGitignoreOfRepeatedDoubleStarsDoesNotHangTheWalk(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, filepath.FromSlash(strings.Repeat("a/", 40)))
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"b.txt", "c"} {
		if err := os.WriteFile(filepath.Join(deep, name), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	line := strings.Repeat("**/a/", 10) + "c" // 51 characters
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("node_modules/\n"+line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	var files []string
	go func() {
		done <- ws.WalkFiles(ctx, func(f WalkedFile) error { files = append(files, path.Base(f.Rel)); return nil })
	}()
	select {
	case err := <-done:
		slices.Sort(files)
		if err != nil || len(files) != 2 || files[0] != ".gitignore" || files[1] != "b.txt" {
			t.Fatalf("walk: %v, files %q (want .gitignore and b.txt; c is ignored)", err, files)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the walk of a 40-folder-deep tree is still running after 10 s under the .gitignore line %q", line)
	}
}
