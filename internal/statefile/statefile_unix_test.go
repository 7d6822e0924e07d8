//go:build unix

package statefile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSpecialFilesRefused: a state file a repository ships as a FIFO, a
// folder, a link to a FIFO or a link to a file elsewhere is refused at
// once (no read blocks, nothing is read through a link), and so is one
// over the bound.
func TestSpecialFilesRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	elsewhere := filepath.Join(dir, "elsewhere.json")
	if err := os.WriteFile(elsewhere, []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 65), 0o644); err != nil {
		t.Fatal(err)
	}
	regular := filepath.Join(dir, "regular")
	if err := os.WriteFile(regular, []byte("ok"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		path func(t *testing.T) string
		ok   bool
	}{
		{"a regular file", func(*testing.T) string { return regular }, true},
		{"a FIFO", func(*testing.T) string { return fifo }, false},
		{"a link to a FIFO", func(t *testing.T) string { return link(t, fifo) }, false},
		{"a link to a file elsewhere", func(t *testing.T) string { return link(t, elsewhere) }, false},
		{"a folder", func(*testing.T) string { return dir }, false},
		{"over the bound", func(*testing.T) string { return big }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.path(t)
			type result struct {
				data []byte
				err  error
			}
			done := make(chan result, 1)
			go func() {
				data, _, err := Read(path, 64)
				done <- result{data, err}
			}()
			select {
			case r := <-done:
				if (r.err == nil) != tc.ok {
					t.Fatalf("Read(%s) = %q, %v; want ok %v", tc.name, r.data, r.err, tc.ok)
				}
			case <-time.After(10 * time.Second):
				if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					w.Close()
				}
				<-done
				t.Fatalf("the read blocked on %s", tc.name)
			}
		})
	}
}

// link is a new symbolic link to target.
func link(t *testing.T, target string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
	return p
}
