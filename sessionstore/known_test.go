package sessionstore

import (
	"os"
	"path/filepath"
	"testing"
)

// TestKnown: a session is known once added, for its workspace and with
// what was recorded of it only, and no longer once removed; the nil record
// (no state folder) knows none and keeps none; a record that is not a
// regular file, or an empty one (from before records held the mode), does
// not count.
func TestKnown(t *testing.T) {
	t.Parallel()
	k := NewKnown(t.TempDir())
	plan, build := Trusted{Mode: "plan"}, Trusted{Mode: "build", Review: "off"}
	if k.Has("/ws", "a", plan) {
		t.Fatal("a session known before it was added")
	}
	if err := k.Add("/ws", "a", plan); err != nil {
		t.Fatal(err)
	}
	if !k.Has("/ws", "a", plan) || k.Has("/other", "a", plan) || k.Has("/ws", "b", plan) || k.Has("/ws", "a", build) {
		t.Fatal("Has after Add: want only session a of /ws, in plan mode")
	}
	if err := k.Add("/ws", "a", build); err != nil {
		t.Fatalf("adding again: %v", err)
	}
	if !k.Has("/ws", "a", build) || k.Has("/ws", "a", plan) {
		t.Fatal("Has after a second Add: want the second record only")
	}
	if err := k.Remove("/ws", "a"); err != nil || k.Has("/ws", "a", build) {
		t.Fatalf("after Remove: %v, known %v", err, k.Has("/ws", "a", build))
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
	if k.Has("/ws", "d", plan) {
		t.Fatal("a link counts as a record")
	}
	if err := os.WriteFile(k.entry("/ws", "e"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if k.Has("/ws", "e", Trusted{}) || k.Has("/ws", "e", plan) {
		t.Fatal("an empty record (from before records held the mode) counts")
	}
	var none *Known
	if NewKnown("") != nil || none.Has("/ws", "a", plan) || none.Add("/ws", "a", plan) != nil || none.Remove("/ws", "a") != nil {
		t.Fatal("the nil record must know and keep nothing")
	}
}
