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

// TestDeleteCutShortLeavesTheSessionGone: a delete that stops after its
// first removal (here the .meta cannot be removed; a kill -9 or a power
// failure does the same) leaves a session that no longer exists, never one
// brought back by its .chat frontmatter, which holds the metadata the
// session was created with (build mode, its first plan).
func TestDeleteCutShortLeavesTheSessionGone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := NewStore(dir)
	const id = "0192f000-0000-7000-8000-00000000d0d1"
	now := time.Now()
	if err := s.Create(Meta{ID: id, Mode: "build", PlanFile: "plans/first.plan", CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveMeta(Meta{ID: id, Mode: "plan", CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	// A .meta that cannot be removed: a folder with a file in it.
	meta := s.metaPath(id)
	if err := os.Remove(meta); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(meta, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(id); err == nil {
		t.Fatal("the delete went through a .meta it cannot remove")
	}
	if s.Exists(id) {
		m, _, err := s.Load(id)
		t.Errorf("after a delete cut short the session is back (mode %q, plan %q, %v): its .chat went last", m.Mode, m.PlanFile, err)
	}
}
