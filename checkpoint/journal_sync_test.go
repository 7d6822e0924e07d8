package checkpoint

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestBeginJournalSyncsTheUndoCheckpoint: before a rewind's journal is
// written (and so before the rewind's first file write), the disk holds
// the undo checkpoint: the store's file system is synced, and a failed sync
// stops the rewind with the reason.
func TestBeginJournalSyncsTheUndoCheckpoint(t *testing.T) {
	s, _ := newStore(t, map[string]string{"a.txt": "the user's work\n"}, DefaultRetention)
	if _, err := s.Save(context.Background(), "s1", "undo1"); err != nil {
		t.Fatal(err)
	}
	var synced []bool // whether the undo checkpoint was on disk at each sync
	syncStore = func(st *Store) error {
		synced = append(synced, st.Has("s1", "undo1"))
		return st.syncDisk()
	}
	t.Cleanup(func() { syncStore = (*Store).syncDisk })
	j := Journal{ID: "undo1", SessionID: "s1", To: "c0", Started: time.Now()}
	if err := s.BeginJournal(j); err != nil {
		t.Fatal(err)
	}
	if len(synced) != 1 || !synced[0] {
		t.Fatalf("syncs before the journal: %v, want one, after the undo checkpoint", synced)
	}
	syncStore = func(*Store) error { return errors.New("EIO") }
	if err := s.BeginJournal(j); err == nil {
		t.Fatal("a rewind went on though its undo checkpoint could not be synced")
	}
}
