package server

import (
	"context"

	"github.com/agentls/agentls/agent"
)

// rewind is agent/rewind {sessionId, toMessageId, what}: the session's
// files, conversation or both as they were before the message
// (docs/rewind.md).
func (s *Server) rewind(ctx context.Context, p agent.RewindRequest) (any, error) {
	res, err := s.manager().Rewind(ctx, p)
	if err != nil {
		return nil, rpcError(err)
	}
	return res, nil
}
