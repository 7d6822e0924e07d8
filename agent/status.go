package agent

import (
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/sandbox"
)

// Status is agent/status's result: what surrounds the agent here — the
// sandbox, each MCP server's state, the language intelligence — read
// without any request to the model (agent/checkModel adds that probe).
type Status struct {
	Sandbox       sandbox.Status
	MCPServers    []agentproto.MCPServerStatus
	LanguageIntel []agentproto.LanguageServing
}

// Status reports the sandbox, the MCP servers and the language
// intelligence. It makes no request to the model's endpoint: editors call
// it after every turn.
func (m *Manager) Status() Status {
	st := Status{Sandbox: m.SandboxStatus()}
	if m.intel != nil {
		st.LanguageIntel = m.intel.Status()
	}
	if src, ok := m.toolSource.(ServerStatuser); ok {
		st.MCPServers = src.ServerStatus()
	}
	return st
}
