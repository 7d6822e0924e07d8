//go:build linux

package checkpoint

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestObjectShippedAsFIFODoesNotBlock: an object a repository ships as a
// FIFO under the object's name fails the read (the rewind says the object
// is missing) instead of hanging it.
func TestObjectShippedAsFIFODoesNotBlock(t *testing.T) {
	s, _ := newStore(t, map[string]string{"a.txt": "alpha\n"}, DefaultRetention)
	sha := Digest([]byte("shipped\n"))
	if err := os.MkdirAll(filepath.Dir(s.objectPath(sha)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(s.objectPath(sha), 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.Object(sha)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a FIFO read as an object")
		}
	case <-time.After(10 * time.Second):
		if w, err := os.OpenFile(s.objectPath(sha), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		<-done
		t.Fatal("reading the object blocked")
	}
}
