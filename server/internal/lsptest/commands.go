package lsptest

import "github.com/agentls/agentls/agent"

// ListCommands calls agent/listCommands.
func (e *Env) ListCommands(sid string) []agent.CommandInfo {
	e.T.Helper()
	var res struct {
		Commands []agent.CommandInfo `json:"commands"`
	}
	if err := e.Editor.Call(e.Ctx, "agent/listCommands", map[string]any{"sessionId": sid}, &res); err != nil {
		e.T.Fatalf("listCommands: %v", err)
	}
	return res.Commands
}
