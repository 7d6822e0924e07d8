package sessionstore

import (
	"os"
	"path/filepath"
	"testing"
)

// TestKnown: a session is known once added, for its workspace only, and
// no longer once removed; the nil record (no state folder) knows none and
// keeps none; a record that is not a regular file does not count.
func TestKnown(t *testing.T) {
	t.Parallel()
	k := NewKnown(t.TempDir())
	if k.Has("/ws", "a") {
		t.Fatal("a session known before it was added")
	}
	if err := k.Add("/ws", "a"); err != nil {
		t.Fatal(err)
	}
	if !k.Has("/ws", "a") || k.Has("/other", "a") || k.Has("/ws", "b") {
		t.Fatal("Has after Add: want only session a of /ws")
	}
	if err := k.Add("/ws", "a"); err != nil {
		t.Fatalf("adding again: %v", err)
	}
	if err := k.Remove("/ws", "a"); err != nil || k.Has("/ws", "a") {
		t.Fatalf("after Remove: %v, known %v", err, k.Has("/ws", "a"))
	}
	if err := k.Remove("/ws", "a"); err != nil {
		t.Fatalf("removing again: %v", err)
	}
	if err := os.MkdirAll(filepath.Dir(k.entry("/ws", "d")), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", k.entry("/ws", "d")); err != nil {
		t.Fatal(err)
	}
	if k.Has("/ws", "d") {
		t.Fatal("a link counts as a record")
	}
	var none *Known
	if NewKnown("") != nil || none.Has("/ws", "a") || none.Add("/ws", "a") != nil || none.Remove("/ws", "a") != nil {
		t.Fatal("the nil record must know and keep nothing")
	}
}
