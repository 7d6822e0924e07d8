//go:build unix

package stateignore

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestEnsureLeavesShippedSpecialFiles: a .gitignore a repository ships as
// a FIFO does not block the start, and one shipped as a link (dangling, to
// a path outside the workspace) is not written through: no file appears
// there. Both stay as they are.
func TestEnsureLeavesShippedSpecialFiles(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "created-outside")
	for _, tc := range []struct {
		name string
		make func(path string) error
		kind os.FileMode
	}{
		{"a FIFO", func(p string) error { return syscall.Mkfifo(p, 0o644) }, os.ModeNamedPipe},
		{"a dangling link out of the workspace", func(p string) error { return os.Symlink(outside, p) }, os.ModeSymlink},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			path := filepath.Join(root, ".agentls", ".gitignore")
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := tc.make(path); err != nil {
				t.Skipf("cannot make %s here: %v", tc.name, err)
			}
			done := make(chan struct{})
			go func() { defer close(done); Ensure(root) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					w.Close()
				}
				<-done
				t.Fatal("Ensure blocked")
			}
			if fi, err := os.Lstat(path); err != nil || fi.Mode().Type() != tc.kind {
				t.Errorf(".gitignore is now %v (%v), want it left as %s", fi.Mode(), err, tc.name)
			}
			if _, err := os.Lstat(outside); !os.IsNotExist(err) {
				t.Errorf("a file appeared outside the workspace through the link: %v", err)
			}
		})
	}
}

// TestEnsureNotThroughALinkedStateFolder: a repository that ships
// .agentls itself as a link (to the folder above, in a monorepo) does not
// get a .gitignore written where the link leads: there it would ignore
// every file of the parent repository.
func TestEnsureNotThroughALinkedStateFolder(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	root := filepath.Join(parent, "sub")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("..", filepath.Join(root, ".agentls")); err != nil {
		t.Fatal(err)
	}
	Ensure(root)
	if _, err := os.Lstat(filepath.Join(parent, ".gitignore")); !os.IsNotExist(err) {
		t.Fatalf("a .gitignore was written through the linked .agentls: %v", err)
	}
}
