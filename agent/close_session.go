package agent

import (
	"context"
	"fmt"
)

// CloseSession ends the session's turn (as Cancel), waits for it to wind
// down, forgets the session in this process and releases its lock, so that
// another process (editor window, face of agentls) may drive it. The
// session stays on disk: loading it (or any request naming it) opens it
// again. Closing a session that exists but is not open here does nothing;
// an unknown session is an error.
func (m *Manager) CloseSession(ctx context.Context, id string) error {
	return m.closeSession(ctx, id, false)
}

// closeSession is CloseSession; keepLock keeps the session's lock (a
// delete that goes on: no other process may take the session between its
// close and its removal).
func (m *Manager) closeSession(ctx context.Context, id string, keepLock bool) error {
	if id == "" {
		return invalidf("sessionId is required")
	}
	m.mu.Lock()
	s, open := m.sessions[id]
	m.mu.Unlock()
	if !open {
		if !m.store.Exists(id) {
			return &InvalidParamsError{Msg: fmt.Sprintf("unknown session %q", id), Err: ErrUnknownSession}
		}
		return nil
	}
	if err := m.Cancel(id); err != nil {
		return err
	}
	_, release, err := s.begin(ctx) // waits for the cancelled turn to end
	if err != nil {
		return fmt.Errorf("close session %s: %w", id, err)
	}
	release()
	s.flushMeta() // the metadata on disk while the lock is still held (meta_touch.go)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sessions[id] != s {
		return nil // closed meanwhile
	}
	if s.isBusy() {
		return ErrBusy // prompted again meanwhile
	}
	// Under m.mu: a request naming the session from now on loads it again
	// and takes the lock anew.
	delete(m.sessions, id)
	if !keepLock {
		m.store.Disown(id)
	}
	m.intelStates.Delete(id) // language_intel.go: its baselines and step files
	// Its sub-agents go with it (their turns ended with the root's): none
	// stays in memory holding its session file's lock.
	for cid, c := range m.sessions {
		if c.sub != nil && c.sub.root == s {
			delete(m.sessions, cid)
			m.store.Disown(cid)
			m.intelStates.Delete(cid)
		}
	}
	return nil
}
