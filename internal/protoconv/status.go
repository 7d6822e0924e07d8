package protoconv

import (
	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/agentproto"
)

// AgentStatus is agent/status's result on the wire.
func AgentStatus(st agent.Status) agentproto.AgentStatus {
	out := agentproto.AgentStatus{Sandbox: agentproto.SandboxStatus(st.Sandbox)}
	if st.MCPServers != nil {
		out.MCPServers = each(st.MCPServers, func(s agent.MCPServerStatus) agentproto.MCPServerStatus { return agentproto.MCPServerStatus(s) })
	}
	if st.LanguageIntel != nil {
		out.LanguageIntel = each(st.LanguageIntel, func(s intel.Serving) agentproto.LanguageServing { return agentproto.LanguageServing(s) })
	}
	return out
}
