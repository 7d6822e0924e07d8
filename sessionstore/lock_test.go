package sessionstore

import (
	"errors"
	"testing"
)

// TestSessionOwnership: two stores on one folder stand for two processes
// (flock locks belong to open files): the second cannot own a session the
// first owns until the first releases it.
func TestSessionOwnership(t *testing.T) {
	dir := t.TempDir()
	a, b := NewStore(dir), NewStore(dir)
	if err := a.Own("s1"); err != nil {
		t.Fatal(err)
	}
	if err := a.Own("s1"); err != nil {
		t.Fatalf("owning twice: %v", err)
	}
	if err := b.Own("s1"); !errors.Is(err, ErrSessionOwned) {
		t.Fatalf("second owner = %v, want ErrSessionOwned", err)
	}
	if err := b.Own("s2"); err != nil {
		t.Fatalf("another session: %v", err)
	}
	a.Release()
	if err := b.Own("s1"); err != nil {
		t.Fatalf("after release: %v", err)
	}
	b.Release()
}
