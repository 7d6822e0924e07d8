package server

import (
	"context"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/protoconv"
)

// listCommands is agent/listCommands: the slash commands a prompt may start
// with (the built-ins and the user commands of .agentls/commands and the
// user's folder), for the editor's completion. A prompt that starts with
// "/" is run by the agent itself (agent/prompt, agentls.prompt).
func (s *Server) listCommands(_ context.Context, p agentproto.ListCommandsParams) (agentproto.ListCommandsResult, error) {
	list, err := s.manager().ListCommands(p.SessionID)
	if err != nil {
		return agentproto.ListCommandsResult{}, rpcError(err)
	}
	return agentproto.ListCommandsResult{Commands: protoconv.Commands(list)}, nil
}
