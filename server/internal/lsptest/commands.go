package lsptest

import (
	"github.com/agentls/agentls/agentproto"
)

// ListCommands calls agent/listCommands.
func (e *Env) ListCommands(sid string) []agentproto.CommandInfo {
	e.T.Helper()
	return MustCall(e, agentproto.ListCommands, agentproto.ListCommandsParams{SessionID: sid}).Commands
}
