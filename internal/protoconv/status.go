package protoconv

import (
	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
)

// AgentStatus is agent/status's result on the wire.
func AgentStatus(st agent.Status) agentproto.AgentStatus {
	return agentproto.AgentStatus{Sandbox: agent.WireSandboxStatus(st.Sandbox), MCPServers: st.MCPServers, LanguageIntel: st.LanguageIntel}
}
