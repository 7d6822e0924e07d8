package sessionstore

import (
	"fmt"
	"os"

	"github.com/agentls/agentls/internal/statefile"
)

// Hold keeps session id's file open for the appends of one turn: the
// turn's first Append opens it, the later ones write through the same
// descriptor, and Sync (the turn's end) syncs and closes it. The returned
// func closes it without syncing if Sync did not (a turn that panicked),
// so that no descriptor outlives the turn. An Append that fails closes it
// too; the next one opens the file again. Without Hold, every Append and
// Sync opens the file anew.
func (s *Store) Hold(id string) (release func()) {
	if ValidID(id) != nil {
		return func() {}
	}
	unlock := s.lock(id)
	s.mu.Lock()
	s.held[id] = nil // held, not opened yet
	s.mu.Unlock()
	unlock()
	return func() {
		defer s.lock(id)()
		s.closeHeld(id)
	}
}

// heldFile returns the open file of a held session and its information,
// opening it at the first call; ok is false when the session is not held
// (the caller opens and closes the file itself). The caller holds id's
// lock.
func (s *Store) heldFile(id string) (f *os.File, fi os.FileInfo, ok bool, err error) {
	s.mu.Lock()
	f, ok = s.held[id]
	s.mu.Unlock()
	if !ok {
		return nil, nil, false, nil
	}
	if f != nil {
		// The name must still lead to the file held: one replaced or
		// removed since (another file, a symlink renamed over it) is judged
		// as a fresh open would judge it, not written to unseen.
		fi, err := f.Stat()
		cur, lerr := os.Lstat(s.path(id))
		if err == nil && lerr == nil && os.SameFile(fi, cur) {
			return f, fi, true, nil
		}
		s.dropHeld(id)
	}
	f, fi, err = statefile.OpenInfo(s.path(id), os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return nil, nil, true, err
	}
	s.mu.Lock()
	s.held[id] = f
	s.mu.Unlock()
	return f, fi, true, nil
}

// dropHeld closes a held session's file after a failed write, keeping the
// session held: the next Append opens it again. The caller holds id's lock.
func (s *Store) dropHeld(id string) {
	s.mu.Lock()
	f, ok := s.held[id]
	if ok {
		s.held[id] = nil
	}
	s.mu.Unlock()
	if f != nil {
		f.Close()
	}
}

// closeHeld ends the hold of id and closes its file. The caller holds
// id's lock.
func (s *Store) closeHeld(id string) {
	s.mu.Lock()
	f := s.held[id]
	delete(s.held, id)
	s.mu.Unlock()
	if f != nil {
		f.Close()
	}
}

// syncHeld syncs and closes a held session's file and ends the hold; ok
// is false when the file is not open (the caller opens it to sync). The
// caller holds id's lock.
func (s *Store) syncHeld(id string) (ok bool, err error) {
	s.mu.Lock()
	f := s.held[id]
	delete(s.held, id)
	s.mu.Unlock()
	if f == nil {
		return false, nil
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return true, fmt.Errorf("sync session %s: %w", id, err)
	}
	return true, nil
}
