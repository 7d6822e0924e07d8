package agent

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/agentls/agentls/agentproto"
)

// PersistError is a write of the session's files (.agentls/chats: the
// conversation's `.chat` file, the `.meta` file) that failed: the turn that
// meets it ends with stopReason "error" and this message, since what the
// session says (its messages, its mode) no longer survives a restart.
type PersistError struct {
	SessionID string
	// What is the write: "messages", "record" or "metadata".
	What string
	Err  error
}

func (e *PersistError) Error() string {
	return fmt.Sprintf("agentls could not save session %s (%s): %v; what happened since is not on disk: fix the cause (a full disk, the folder's permissions) and prompt again",
		e.SessionID, e.What, e.Err)
}

func (e *PersistError) Unwrap() error { return e.Err }

// persistFailed records a failed write of the session's files: the first one
// since a turn last reported one is kept for the turn to end with.
func (s *Session) persistFailed(what string, err error) {
	slog.Error("persist session", "session", s.meta.ID, "what", what, "err", err)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.persistErr == nil {
		s.persistErr = &PersistError{SessionID: s.meta.ID, What: what, Err: err}
	}
}

// takePersistErr returns the failed write recorded since the last call
// (nil when every write succeeded) and forgets it.
func (s *Session) takePersistErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.persistErr
	s.persistErr = nil
	if err == nil {
		return nil
	}
	return err
}

// runPersisted runs the turn with the session file held open for its
// appends (sessionstore.Store.Hold; persisted's Sync closes it, the
// deferred release if the turn panics) and returns persisted's result.
func (s *Session) runPersisted(ctx context.Context) TurnResult {
	defer s.m.store.Hold(s.meta.ID)()
	return s.persisted(s.runTurn(ctx))
}

// persisted is res, after syncing the turn's messages to the disk, unless a
// write of the session's files failed during the turn: then the turn ends
// with that error.
func (s *Session) persisted(res TurnResult) TurnResult {
	// What the turn appended goes to the disk once, now (sessionstore.Store.Sync).
	if err := s.m.store.Sync(s.meta.ID); err != nil {
		s.persistFailed("messages", err)
	}
	if err := s.takePersistErr(); err != nil && res.StopReason != agentproto.StopCancelled {
		return TurnResult{StopReason: agentproto.StopError, Err: err}
	}
	return res
}
