package agentapi

import (
	"context"

	"github.com/agentls/agentls/agentproto"
)

// Turns are a session's turns as the face-neutral handlers call them.
type Turns interface {
	Cancel(id string) error
	Compact(ctx context.Context, id string) (agentproto.CompactResult, error)
	Rewind(ctx context.Context, req agentproto.RewindParams) (agentproto.RewindResult, error)
}

var turnHandlers = []Handler{
	handle(agentproto.Cancel, cancel),
	handle(agentproto.Compact, compact),
	handle(agentproto.Rewind, rewind),
}

// compact is agent/compact: the session's history is compacted now.
func compact(ctx context.Context, a Services, p agentproto.SessionParams) (agentproto.CompactResult, error) {
	res, err := a.Compact(ctx, p.SessionID)
	return res, err
}

// rewind is agent/rewind: the session's files, conversation or both as
// they were before a message (docs/rewind.md).
func rewind(ctx context.Context, a Services, p agentproto.RewindParams) (agentproto.RewindResult, error) {
	return a.Rewind(ctx, p) // the agent's types are agentproto's
}

// cancel is agent/cancel: the session's turn ends (stopReason cancelled).
func cancel(_ context.Context, a Services, p agentproto.SessionParams) (agentproto.Null, error) {
	return agentproto.Null{}, a.Cancel(p.SessionID)
}
