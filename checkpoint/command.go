package checkpoint

import (
	"context"
	"maps"
)

// Before is the workspace as a command found it (BeforeCommand): what the
// command changed is told from it (KnowCommand), so that only what
// changed while it ran can be the command's.
type Before struct {
	man Manifest
}

// BeforeCommand scans the workspace (no objects written) before a command
// or a mutating tool runs. The digest cache makes it a walk with a stat
// per file when little changed.
func (s *Store) BeforeCommand(ctx context.Context) (*Before, error) {
	man, err := s.Scan(ctx)
	if err != nil {
		return nil, err
	}
	return &Before{man: man}, nil
}

// KnowCommand scans the workspace after the command b was taken for and
// records as sessionID's own (UpdateKnown) what changed since b: what
// changed before b (the user's save while the model thought) stays the
// user's, and a rewind leaves it as a conflict. It returns what it
// recorded.
func (s *Store) KnowCommand(ctx context.Context, sessionID string, b *Before) (Known, error) {
	after, err := s.Scan(ctx)
	if err != nil {
		return nil, err
	}
	changes := changesBetween(b.man, after)
	return maps.Clone(changes), s.UpdateKnown(sessionID, changes)
}
