package tools

import (
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/sandbox"
)

// MCPPolicy is the sandbox profile `mcp` of an MCP stdio server
// (docs/mcp.md): CommandPolicy of a process nobody was asked about
// (Unasked: every repository and auto-run file read-only), the network as
// the server's origin allows, but caches of its own, beside run's and out
// of its reach: a server may hold
// a token and the network, and runs what its cache holds (`npx -y`,
// `uvx`), so a command with neither must not be able to plant it there.
func MCPPolicy(cfg config.Config, folders []string, network bool) sandbox.Policy {
	pol := CommandPolicy(cfg, folders, network, Unasked)
	if pol.CacheDir != "" {
		pol.CacheDir += "-mcp"
	}
	return pol
}
