package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/agentls/agentls/sessionstore"
)

// DeleteSession removes a session from disk. A session open in this
// process is closed first (its turn cancelled); one another process drives
// is refused with an error saying so; an unknown one is ErrUnknownSession.
func (m *Manager) DeleteSession(ctx context.Context, id string) error {
	if id == "" {
		return invalidf("sessionId is required")
	}
	if err := sessionstore.ValidID(id); err != nil {
		return &InvalidParamsError{Msg: err.Error()} // malformed, not merely unknown
	}
	meta := m.ownSessionMetas()[id] // for its plan lock, below
	m.mu.Lock()
	_, open := m.sessions[id]
	m.mu.Unlock()
	if open {
		if err := m.CloseSession(ctx, id); err != nil {
			return fmt.Errorf("delete session %s: %w", id, err)
		}
	}
	err := m.store.Delete(id)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return &InvalidParamsError{Msg: fmt.Sprintf("unknown session %q", id), Err: ErrUnknownSession}
	case errors.Is(err, sessionstore.ErrSessionOwned):
		return invalidf("session %s is open in another agentls process (another editor window?): close it there, then delete it", id)
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
