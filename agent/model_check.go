package agent

import (
	"context"
	"log/slog"

	"github.com/agentls/agentls/agentproto"
)

// ServerStatuser is a ToolSource that reports its servers' states (for
// agent/checkModel, docs/mcp.md): running, idle (not started yet: servers
// start at a session's first tool listing), failed (with the tail of its
// stderr), skipped (with the reason: an untrusted workspace file, an
// ${input:…} value, disabled, an HTTP server) or stopped.
type ServerStatuser interface {
	ServerStatus() []agentproto.MCPServerStatus
}

// modelChecker is a provider that can check its endpoint with one cheap
// request (a provider that could not be configured says why).
type modelChecker interface {
	Check(ctx context.Context) error
}

// CheckModel tells whether the configured model can answer: one cheap
// request to its endpoint, or the reason none can be made.
func (m *Manager) CheckModel(ctx context.Context) agentproto.ModelCheck {
	cfg := m.config()
	st := m.Status()
	res := agentproto.ModelCheck{Provider: cfg.Model.Provider, Model: cfg.Model.Name, BaseURL: cfg.Model.BaseURL,
		Sandbox: WireSandboxStatus(st.Sandbox), MCPServers: st.MCPServers, LanguageIntel: st.LanguageIntel}
	if res.Provider == "" {
		res.Provider = "openai"
	}
	if res.Provider == "scripted" {
		res.BaseURL = ""
	}
	// Logged: an editor that probes the model after every turn shows here
	// (they ask agent/status, which makes no request).
	slog.Info("model check", "provider", res.Provider, "model", res.Model)
	var err error
	if p, ok := m.Provider().(modelChecker); ok {
		err = p.Check(ctx)
	}
	if err != nil {
		res.Message = err.Error()
		slog.Info("model check failed", "provider", res.Provider, "model", res.Model, "err", err)
		return res
	}
	res.OK = true
	res.ContextWindow, res.ContextWindowSource = m.configuredWindow(ctx)
	return res
}
