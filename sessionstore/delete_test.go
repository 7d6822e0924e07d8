package sessionstore

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestDeleteLeavesNothing: deleting a session removes every file it had
// beside its .chat (.meta, .approved with its approved plan's text, .lock).
func TestDeleteLeavesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := NewStore(dir)
	const id = "0192f000-0000-7000-8000-00000000d0d0"
	now := time.Now()
	if err := s.Create(Meta{ID: id, Mode: "plan", CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveMeta(Meta{ID: id, Mode: "build", CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveApproved(id, "plans/p.plan", "# Goal\nthe secret plan\n"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(id); err != nil {
		t.Fatal(err)
	}
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		if filepath.Ext(e.Name()) != "" && e.Name()[:len(id)] == id {
			t.Errorf("%s is left after the session was deleted", e.Name())
		}
	}
}
