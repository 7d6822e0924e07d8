package server

import (
	"context"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/protoconv"
)

// rewind is agent/rewind {sessionId, toMessageId, what}: the session's
// files, conversation or both as they were before the message
// (docs/rewind.md).
func (s *Server) rewind(ctx context.Context, p agentproto.RewindParams) (agentproto.RewindResult, error) {
	res, err := s.manager().Rewind(ctx, protoconv.RewindRequest(p))
	if err != nil {
		return agentproto.RewindResult{}, rpcError(err)
	}
	return protoconv.RewindResult(res), nil
}
