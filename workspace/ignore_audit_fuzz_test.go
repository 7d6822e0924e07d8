package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAHostileGitignoreDoesNotHangTheWalk: a repository's .gitignore is
// anyone's text, and so is its folder tree. A pattern of repeated "**"
// segments ("**/a/**/a/…/c") against a deep path makes the matcher try
// every way of spreading the path over the "**"s (matchSegments
// backtracks with no memo), so one check of one folder takes minutes, and
// every walk (the checkpoint before each turn, grep, glob, ls) hangs.
// Git's own matcher answers such a line at once. The walk of this small
// tree must finish in seconds.
func TestAHostileGitignoreDoesNotHangTheWalk(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, filepath.FromSlash(strings.Repeat("a/", 40)))
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(deep, "b.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
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
	files := 0
	go func() {
		done <- ws.WalkFiles(ctx, func(WalkedFile) error { files++; return nil })
	}()
	select {
	case err := <-done:
		if err != nil || files != 2 {
			t.Fatalf("walk: %v, %d files (want .gitignore and b.txt)", err, files)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the walk of a 40-folder-deep tree is still running after 10 s under the .gitignore line %q", line)
	}
}
