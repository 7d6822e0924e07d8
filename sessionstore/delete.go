package sessionstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Delete removes a session's files (.chat, .meta). It takes the session's
// lock first: a session another process drives is refused
// (ErrSessionOwned), and none can open it while it goes. An unknown session
// is os.ErrNotExist.
func (s *Store) Delete(id string) error {
	if err := ValidID(id); err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	if !s.Exists(id) {
		return fmt.Errorf("delete session %s: %w", id, os.ErrNotExist)
	}
	if err := s.Own(id); err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	defer s.Disown(id)
	defer s.lock(id)()
	s.closeHeld(id) // a turn's next append must find the file gone, not write to its unlinked inode
	s.mu.Lock()
	delete(s.synced, id)
	delete(s.unwritten, id)
	s.mu.Unlock()
	// The .chat goes first: the session exists by it (Exists, List), so a
	// delete cut short (a crash, a kill -9) leaves a session gone, never one
	// brought back by its .chat frontmatter alone with the metadata it was
	// created with (build mode, its first plan).
	for _, p := range []string{s.path(id), filepath.Join(s.dir, id+approvedExt), s.metaPath(id)} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("delete session %s: %w", id, err)
		}
	}
	// The lock file goes last, still locked: a process that opened it
	// meanwhile finds no session to load.
	if err := os.Remove(s.lockPath(id)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	return nil
}

func (s *Store) lockPath(id string) string {
	return s.path(id)[:len(s.path(id))-len(chatExt)] + ".lock"
}
