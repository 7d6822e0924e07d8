//go:build linux

package checkpoint

import (
	"bytes"
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestHashCacheSpecialFilesIgnored: a cache that is a symbolic link (to a
// well-formed cache a repository could ship beside it) is not read, and
// one that is a FIFO (or a link to one) does not block the checkpoint.
func TestHashCacheSpecialFilesIgnored(t *testing.T) {
	ctx := context.Background()
	s, root := newStore(t, map[string]string{"a.txt": "alpha\n"}, DefaultRetention)
	p := filepath.Join(root, "a.txt")
	st := needFullStamps(t, p)
	forged := hashRecord{path: p, stamp: st}
	copy(forged.sha[:], bytes.Repeat([]byte{0xef}, sha256.Size))
	later := time.Now().Add(30 * time.Second)
	target := filepath.Join(t.TempDir(), "shipped")
	if err := os.WriteFile(target, encodeHashCache([]hashRecord{forged}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(target, later, later); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	cache := filepath.Join(s.Dir(), hashCacheFile)
	for _, c := range []struct {
		name string
		make func() error
	}{
		{"a link to a well-formed cache", func() error { return os.Symlink(target, cache) }},
		{"a link to a FIFO", func() error { return os.Symlink(fifo, cache) }},
		{"a FIFO", func() error { return syscall.Mkfifo(cache, 0o644) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.RemoveAll(cache); err != nil {
				t.Fatal(err)
			}
			if err := c.make(); err != nil {
				t.Fatal(err)
			}
			done := make(chan Manifest, 1)
			go func() {
				man, _ := Open(s.ws, DefaultRetention).Scan(ctx)
				done <- man
			}()
			select {
			case man := <-done:
				if got := man["a.txt"].SHA256; got != Digest([]byte("alpha\n")) {
					t.Fatalf("a.txt = %s through %s", got, c.name)
				}
			case <-time.After(10 * time.Second):
				// Unblock the reader before failing: open the FIFO for writing.
				if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					w.Close()
				}
				if w, err := os.OpenFile(cache, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					w.Close()
				}
				<-done
				t.Fatalf("the scan blocked on %s", c.name)
			}
		})
	}
}
