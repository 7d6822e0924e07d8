package host

import (
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/mcpclient"
)

// mcpSpecs are the workspace's shared MCP servers under cfg: mcp.servers,
// then those of the workspace's .mcp.json and .vscode/mcp.json. A workspace
// file's servers start only once the user trusted that file's content (the
// trust store of .agentls.yaml); until then each is skipped, saying why.
func (h *Host) mcpSpecs(cfg config.Config) []mcpclient.ServerSpec {
	specs := mcpclient.SpecsFromConfig(cfg)
	root := h.ws.Root()
	for _, f := range mcpclient.ReadWorkspaceFiles(root, h.opts.Getenv, mcpclient.Denied(cfg)) {
		rel, _ := filepath.Rel(root, f.Path)
		if f.Err != nil {
			slog.Warn("mcp: workspace file left out", "file", rel, "err", f.Err)
			continue
		}
		trusted := h.trust.Trusted(f.Path, f.Content)
		for _, s := range f.Specs {
			if !trusted && s.Skip == "" {
				s.Skip = fmt.Sprintf("defined in %s, whose content you have not trusted: agentls starts no server of it until you do (the LSP face asks when the workspace opens and when the file is saved; or define the server under mcp.servers in your own configuration)", rel)
				s.Source = rel
			}
			if s.Skip != "" {
				slog.Info("mcp: server not started", "server", s.Name, "file", rel, "why", s.Skip)
			}
			s.Network = trusted // off for workspace-file servers unless trusted
			specs = append(specs, s)
		}
	}
	return specs
}

// MCPStatus is the status of each MCP server of the workspace (running,
// failed with its stderr tail, skipped with the reason).
func (h *Host) MCPStatus() []agentproto.MCPServerStatus { return h.mcp.Status() }

// mcpSource is the pool as the agent's tool source, with its servers'
// states for agent/checkModel.
type mcpSource struct{ *mcpclient.Pool }

// ServerStatus implements agent.ServerStatuser: the pool's status is the
// protocol's.
func (s mcpSource) ServerStatus() []agentproto.MCPServerStatus { return s.Status() }

// SetSessionMCPServers gives a session the MCP servers its client named
// (ACP session/new, session/load).
func (h *Host) SetSessionMCPServers(sessionID string, specs []mcpclient.ServerSpec) {
	h.mcp.SetSessionServers(sessionID, specs)
}

// DropSessionMCPServers stops the servers a session had of its own (it
// closed or was deleted).
func (h *Host) DropSessionMCPServers(sessionID string) { h.mcp.DropSession(sessionID) }

// SessionPrompts implements agent.MCPExtras.
func (s mcpSource) SessionPrompts(sessionID string) []agent.MCPPrompt {
	var out []agent.MCPPrompt
	for _, p := range s.Pool.SessionPrompts(sessionID) {
		ap := agent.MCPPrompt{Server: p.Server, Name: p.Name, Description: p.Description}
		for _, a := range p.Args {
			ap.Args = append(ap.Args, agent.MCPPromptArg{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		out = append(out, ap)
	}
	return out
}

var _ agent.MCPExtras = mcpSource{}
