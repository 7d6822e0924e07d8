package sessionstore

import (
	"errors"
	"os"
)

// Disown gives up one session this store owns (unlocks and closes its lock
// file): another process may drive it from now on. Disowning a session not
// owned is a no-op.
func (s *Store) Disown(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.owned[id]; ok {
		unlock(id, f) // store.go
		delete(s.owned, id)
		delete(s.synced, id) // another process may save it from now on

	}
}

// Owns tells whether this store holds the session's lock.
func (s *Store) Owns(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.owned[id]
	return ok
}

// Exists tells whether the session has a file in the store.
func (s *Store) Exists(id string) bool {
	if ValidID(id) != nil {
		return false
	}
	_, err := os.Stat(s.path(id))
	return !errors.Is(err, os.ErrNotExist)
}
