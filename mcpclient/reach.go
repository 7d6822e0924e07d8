package mcpclient

import (
	"fmt"

	"github.com/agentls/agentls/agentproto"
)

// remote reports whether the spec is an HTTP server: it runs elsewhere, so
// what a call sends leaves the machine.
func (s ServerSpec) remote() bool { return s.Type == "http" || s.URL != "" }

// reach is where a call to one of s's tools can send what it gets: the
// network for an HTTP server and for a stdio server that has the network —
// its origin gives it (spec.Network) or no sandbox layer can switch it off
// (networkIsolated) — as its questions show it (agent.MCPPlace: Network
// yes or not isolated); only a stdio server the sandbox keeps off the
// network is a mere process.
func (s *Server) reach() agentproto.Reach {
	if s.spec.remote() || s.spec.Network || !networkIsolated(s.policy) {
		return agentproto.ReachNetwork
	}
	return agentproto.ReachProcess
}

// networkRemedy is what, besides plan_mode.allow_network_tools, lets a
// read-only tool of s run in plan mode, for the guard's refusal: a server
// of the configuration that needs no network can do without it
// (`network: false`), where a sandbox layer can switch the network off.
// "" when nothing else does (an HTTP server, an ACP client's or a
// workspace file's server, a server without the network).
func (s *Server) networkRemedy() string {
	if s.spec.remote() || s.spec.Origin != FromConfig || !s.spec.Network && networkIsolated(s.policy) {
		return ""
	}
	r := fmt.Sprintf("or, if MCP server %q needs no network, set `network: false` on it in mcp.servers", s.spec.Name)
	if !networkIsolated(s.policy) {
		r += fmt.Sprintf(" and run agentls where the sandbox can switch the network off (here it cannot: sandbox %s)", sandboxMode(s.policy))
	}
	return r
}
