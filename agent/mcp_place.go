package agent

import (
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/sandbox"
)

// SandboxRemote is the sandbox state an HTTP MCP server's question shows:
// it runs elsewhere, no sandbox of this machine confines it.
const SandboxRemote = permission.SandboxOff + " (a remote HTTP server)"

// MCPPlace is where an MCP server's tool call runs, as its question shows
// it (Guard III: every question shows what it grants): for an HTTP server
// (remote) the network is "yes" (the call's arguments leave the machine)
// and no sandbox; for a stdio server, under the sandbox st, the network is
// "yes" when its origin allows it (network), "no" when the sandbox keeps
// it in, "not isolated" when no layer can switch it off; the sandbox is
// "on (<layers>)" or "off".
func MCPPlace(st sandbox.Status, remote, network bool) (networkState, sandboxState string) {
	if remote {
		return permission.NetworkYes, SandboxRemote
	}
	return localPlace(st, network)
}

// localPlace is where a process of this machine runs under the sandbox st,
// as a question shows it: the network "yes" when it is given it
// (network), "no" when the sandbox keeps it in, "not isolated" when no
// layer confines it; the sandbox "on (<layers>)" or "off". Commands
// (RunPlace) and stdio MCP servers (MCPPlace) are both such processes.
func localPlace(st sandbox.Status, network bool) (networkState, sandboxState string) {
	if !st.Confines() {
		return permission.NetworkNotIsolated, permission.SandboxOff
	}
	sandboxState = permission.SandboxOn + " (" + st.Mode + ")"
	if network {
		return permission.NetworkYes, sandboxState
	}
	return permission.NetworkNo, sandboxState
}
