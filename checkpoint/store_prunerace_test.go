package checkpoint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCrossProcessPruneKeepsReusedObjects: two agentls processes on
// one workspace (two Stores). Objects of an old content (older than
// objectGrace) are still on disk, used only by an expired checkpoint; the
// user's files go back to that content (a `git checkout`, a stash pop).
// Process A takes a checkpoint: its scan finds those objects present and
// reuses them without writing (or touching) them. Process B's prune runs
// after A's scan and before A's manifest is on disk: it drops the expired
// checkpoint and collects the objects, being an hour old and used by no
// manifest it listed. A's new checkpoint then names objects that are gone:
// a rewind to it cannot restore those files. docs/rewind.md promises the
// hour of grace exactly for "another agentls process on the same workspace
// [that] may be writing the manifest that uses" an object.
//
// B's prune is run from A's file-system clock, which A reads for each file
// it stores an object of: once A has stored every new object, its walk is
// over and its reuse checks (in map order) are mostly done.
func TestCrossProcessPruneKeepsReusedObjects(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{}
	for i := 0; i < 8; i++ {
		files[fmt.Sprintf("old%d.txt", i)] = fmt.Sprintf("old content %d\n", i)
	}
	seed, root := newStore(t, files, DefaultRetention)
	if _, err := seed.Save(ctx, "expired", "e1"); err != nil {
		t.Fatal(err)
	}
	// The expired session's checkpoint is 30 days old; its objects 2 hours.
	man, _ := seed.manifestPath("expired", "e1")
	month := time.Now().Add(-30 * 24 * time.Hour)
	if err := os.Chtimes(man, month, month); err != nil {
		t.Fatal(err)
	}
	objs, _ := os.ReadDir(filepath.Join(seed.Dir(), "objects"))
	hours := time.Now().Add(-2 * time.Hour)
	for _, o := range objs {
		if err := os.Chtimes(filepath.Join(seed.Dir(), "objects", o.Name()), hours, hours); err != nil {
			t.Fatal(err)
		}
	}
	// New files, whose objects A must write.
	var fresh []string
	for i := 0; i < 8; i++ {
		c := fmt.Sprintf("new content %d\n", i)
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("new%d.txt", i)), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		fresh = append(fresh, Digest([]byte(c)))
	}

	a := Open(seed.ws, DefaultRetention)
	b := Open(seed.ws, DefaultRetention)
	stored := func() bool {
		for _, sha := range fresh {
			if _, err := os.Stat(a.objectPath(sha)); err != nil {
				return false
			}
		}
		return true
	}
	prunes := 0
	a.fsNow = func() time.Time {
		if prunes == 0 && stored() { // A's reuse checks under way: B's turn ends with its prune
			b.mu.Lock()
			err := b.prune(map[string]bool{}, "other", true)
			b.mu.Unlock()
			if err != nil {
				t.Error(err)
			}
			prunes++
		}
		return time.Now()
	}
	got, err := a.Save(ctx, "s2", "c1")
	if err != nil {
		t.Fatal(err)
	}
	if prunes == 0 {
		t.Fatal("B's prune never ran inside A's save: the test shows nothing")
	}
	for _, key := range got.Keys() {
		e := got[key]
		if e.Unrestorable {
			continue
		}
		if _, err := a.Object(e.SHA256); err != nil {
			t.Errorf("checkpoint s2/c1 names %s, but its object is gone (collected by the other process's prune): a rewind cannot restore it: %v", key, err)
		}
	}
}
