package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/agentls/agentls/internal/exactjson"
)

// journalFile is a session's rewind under way.
const journalFile = "rewind.journal"

// Journal is the record of a rewind, written before its first file is
// touched and removed once it is done. Each file is replaced atomically,
// so a rewind killed midway leaves every file wholly old or wholly new; the
// journal says which rewind was interrupted and the checkpoint that undoes
// it.
type Journal struct {
	// ID is the rewind's id (also the checkpoint of the state before it).
	ID        string    `json:"id"`
	SessionID string    `json:"sessionId"`
	To        string    `json:"toMessageId"`
	Started   time.Time `json:"started"`
	// Paths are the files the rewind is about to change.
	Paths exactjson.Strings `json:"paths"`
	// Digests are, by the same keys, the digest each file has once the
	// rewind wrote it ("" for a file it deletes): a file found so after
	// the rewind was interrupted is the rewind's own write, not someone
	// else's change (Wrote).
	Digests Known `json:"digests,omitempty"`
}

// Wrote reports whether the file of key, whose digest is now now ("" for
// absent), is as the journal's rewind writes it.
func (j *Journal) Wrote(key, now string) bool {
	if j == nil {
		return false
	}
	d, ok := j.Digests[key]
	return ok && d == now
}

// syncStore is Store.syncDisk (tests watch it).
var syncStore = (*Store).syncDisk

// BeginJournal stores j before a rewind touches its first file. The
// undo checkpoint the rewind took before (its objects and manifest, which
// a save does not sync) reaches the disk first (syncDisk): the rewind's
// own writes will, and a power failure after them must not lose the work
// they replaced, which only that checkpoint holds.
func (s *Store) BeginJournal(j Journal) error {
	if !ValidID(j.SessionID) {
		return fmt.Errorf("checkpoint: invalid session id %q", j.SessionID)
	}
	if err := s.checkOwnFolders(j.SessionID); err != nil {
		return err
	}
	if err := syncStore(s); err != nil {
		return fmt.Errorf("checkpoint: sync the undo checkpoint to the disk: %w", err)
	}
	return writeJSON(filepath.Join(s.dir, j.SessionID, journalFile), j, true)
}

// EndJournal removes the session's journal once its rewind is done.
func (s *Store) EndJournal(sessionID string) error {
	if !ValidID(sessionID) {
		return fmt.Errorf("checkpoint: invalid session id %q", sessionID)
	}
	if err := s.checkOwnFolders(sessionID); err != nil {
		return err
	}
	err := os.Remove(filepath.Join(s.dir, sessionID, journalFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// PendingJournal returns the journal of a rewind that did not finish (a
// killed agentls), if any.
func (s *Store) PendingJournal(sessionID string) (*Journal, error) {
	if !ValidID(sessionID) {
		return nil, nil
	}
	var j Journal
	err := readJSON(filepath.Join(s.dir, sessionID, journalFile), &j)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &j, nil
}
