package server

import (
	"context"

	"github.com/agentls/agentls/agent"
)

// listCommands is agent/listCommands: the slash commands a prompt may start
// with (the built-ins and the user commands of .agentls/commands and the
// user's folder), for the editor's completion. A prompt that starts with
// "/" is run by the agent itself (agent/prompt, agentls.prompt).
func (s *Server) listCommands(_ context.Context, p sessionParams) (any, error) {
	list, err := s.manager().ListCommands(p.SessionID)
	if err != nil {
		return nil, rpcError(err)
	}
	if list == nil {
		list = []agent.CommandInfo{}
	}
	return map[string]any{"commands": list}, nil
}
