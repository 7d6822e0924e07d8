package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// benchWorkspace makes a workspace of about n entries in dir: folders of
// nine files and a subfolder each, ten levels deep at most, a node_modules
// with as many again (skipped), and one auto-run link.
func benchWorkspace(b *testing.B, dir string, n int) {
	b.Helper()
	made := 0
	for top := 0; made < n; top++ {
		p := filepath.Join(dir, fmt.Sprintf("pkg%03d", top))
		for depth := 0; depth < 10 && made < n; depth++ {
			p = filepath.Join(p, fmt.Sprintf("d%d", depth))
			if err := os.MkdirAll(p, 0o755); err != nil {
				b.Fatal(err)
			}
			made++
			for f := 0; f < 9; f++ {
				if err := os.WriteFile(filepath.Join(p, fmt.Sprintf("f%d.go", f)), nil, 0o644); err != nil {
					b.Fatal(err)
				}
				made++
			}
		}
	}
	if err := os.Symlink("../pkg000", filepath.Join(dir, "pkg001", ".envrc")); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkAutoRunRoots: the look-up of a BUILD change set in a
// workspace of 50,000 entries (5,000 folders), one link among them. walk
// is a new index every time (the whole walk every change set did before
// the index); index is the same index again, its folders' stamps settled
// (the clock set linkRacyWindow ahead, as if made more than 2 s ago): one
// Lstat a folder, no listing.
func BenchmarkAutoRunRoots(b *testing.B) {
	dir := b.TempDir()
	benchWorkspace(b, dir, 50_000)
	folders := []string{dir}
	b.Run("walk", func(b *testing.B) {
		for b.Loop() {
			if roots, ok := new(autoRunLinks).roots(folders); len(roots) != 1 || !ok {
				b.Fatalf("roots %v, complete %v; want one link", roots, ok)
			}
		}
	})
	b.Run("index", func(b *testing.B) {
		x := &autoRunLinks{now: func() time.Time { return time.Now().Add(linkRacyWindow) }}
		x.roots(folders)
		for b.Loop() {
			if roots, ok := x.roots(folders); len(roots) != 1 || !ok {
				b.Fatalf("roots %v, complete %v; want one link", roots, ok)
			}
		}
	})
}
