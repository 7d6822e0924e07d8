package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/agentls/agentls/sessionstore"
)

// DeleteSession removes a session from disk, and its sub-agents' sessions
// (hidden from every listing, they would keep its transcript's secrets with
// no way left to see or delete them). A session open in this process is
// closed first (its turn cancelled); one another process drives is refused
// with an error saying so; an unknown one is ErrUnknownSession.
func (m *Manager) DeleteSession(ctx context.Context, id string) error {
	if id == "" {
		return invalidf("sessionId is required")
	}
	if err := sessionstore.ValidID(id); err != nil {
		return &InvalidParamsError{Msg: err.Error()} // malformed, not merely unknown
	}
	// A session another process drives is refused before anything goes:
	// its sub-agents' sessions are that process's too. The lock taken here
	// is the one Delete takes (owning twice is a no-op).
	m.mu.Lock()
	_, open := m.sessions[id]
	m.mu.Unlock()
	if !open && m.store.Exists(id) {
		if err := m.store.Own(id); err != nil {
			if errors.Is(err, sessionstore.ErrSessionOwned) {
				return ownedElsewhere(id)
			}
			return fmt.Errorf("delete session %s: %w", id, err)
		}
		defer m.store.Disown(id) // when a sub-agent's delete failed and it stays
	}
	metas := m.ownSessionMetas()
	meta := metas[id] // for its plan lock, below
	// Its sub-agents first (the deepest first): a failure leaves the
	// session itself, so that deleting it again finishes the job.
	for _, child := range descendants(metas, id) {
		if err := m.deleteOne(ctx, child, metas[child]); err != nil && !errors.Is(err, ErrUnknownSession) {
			return fmt.Errorf("delete session %s: its sub-agent %s: %w", id, child, err)
		}
	}
	return m.deleteOne(ctx, id, meta)
}

// descendants are the sub-agent sessions below id (by their parent_id),
// the deepest first; each once, whatever loops session files on disk make.
func descendants(metas map[string]sessionstore.Meta, id string) []string {
	seen := map[string]bool{id: true}
	var out []string
	var walk func(parent string)
	walk = func(parent string) {
		for cid, meta := range metas {
			if meta.ParentID == parent && !seen[cid] {
				seen[cid] = true
				walk(cid)
				out = append(out, cid)
			}
		}
	}
	walk(id)
	return out
}

// deleteOne removes one session (DeleteSession).
func (m *Manager) deleteOne(ctx context.Context, id string, meta sessionstore.Meta) error {
	m.mu.Lock()
	_, open := m.sessions[id]
	m.mu.Unlock()
	if open {
		// The lock stays (store.Delete gives it up once the files are gone):
		// another process taking the session in between would have its
		// delete refused with its sub-agents already gone.
		if err := m.closeSession(ctx, id, true); err != nil {
			return fmt.Errorf("delete session %s: %w", id, err)
		}
	}
	err := m.store.Delete(id)
	if open && err != nil {
		m.store.Disown(id) // the lock the close kept (Delete gives it up only once it took it)
	}
	switch {
	case errors.Is(err, os.ErrNotExist):
		return &InvalidParamsError{Msg: fmt.Sprintf("unknown session %q", id), Err: ErrUnknownSession}
	case errors.Is(err, sessionstore.ErrSessionOwned):
		return ownedElsewhere(id)
	case err != nil:
		return err
	}
	if err := m.known.Remove(m.ws.Root(), id); err != nil {
		slog.Warn("delete session: its record", "session", id, "err", err)
	}
	// A session that built a plan no longer does: its plan lock goes (it
	// would not hold without the session file either: LockRegistry.Live).
	if m.locks != nil {
		if abs := m.planLockPath(meta); abs != "" {
			m.releasePlanLock(abs, id)
		}
	}
	return nil
}

// ownedElsewhere is the refusal to delete a session another process drives.
func ownedElsewhere(id string) error {
	return invalidf("session %s is open in another agentls process (another editor window?): close it there, then delete it", id)
}
