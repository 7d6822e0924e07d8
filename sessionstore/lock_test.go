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

// TestNoOwnAfterRelease: Release is the end of the store's process (the
// server shutting down). An Own that comes later (a request still under
// way) fails and takes no lock: another process can drive the session.
func TestNoOwnAfterRelease(t *testing.T) {
	dir := t.TempDir()
	a, b := NewStore(dir), NewStore(dir)
	if err := a.Own("s1"); err != nil {
		t.Fatal(err)
	}
	a.Release()
	for _, id := range []string{"s1", "s2"} { // owned before, never owned
		if err := a.Own(id); !errors.Is(err, ErrReleased) {
			t.Errorf("Own(%s) after Release = %v, want ErrReleased", id, err)
		}
		if a.Owns(id) {
			t.Errorf("released store owns %s", id)
		}
		if err := b.Own(id); err != nil {
			t.Errorf("another process cannot own %s after the release: %v", id, err)
		}
	}
	b.Release()
}
