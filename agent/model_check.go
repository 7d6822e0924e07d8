package agent

import (
	"context"
	"log/slog"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/sandbox"
)

// ModelCheck is agent/checkModel's result (PROTOCOL.md §2).
type ModelCheck struct {
	OK       bool   `json:"ok"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
	BaseURL  string `json:"baseUrl"`
	Message  string `json:"message,omitempty"`
	// Sandbox is what confines commands here (docs/guard.md, Sandbox).
	Sandbox sandbox.Status `json:"sandbox"`
	// MCPServers is the state of each MCP server (docs/mcp.md), when there
	// are any.
	MCPServers []MCPServerStatus `json:"mcpServers,omitempty"`
	// LanguageIntel says which source serves each file type
	// (docs/language-intel.md); none when no source serves.
	LanguageIntel []intel.Serving `json:"languageIntel,omitempty"`
}

// MCPServerStatus is one MCP server's state: running, idle (not started
// yet: servers start at a session's first tool listing), failed (with the
// tail of its stderr), skipped (with the reason: an untrusted workspace
// file, an ${input:…} value, disabled, an HTTP server) or stopped.
type MCPServerStatus struct {
	Name       string `json:"name"`
	State      string `json:"state"`
	Origin     string `json:"origin"`
	Command    string `json:"command"`
	Reason     string `json:"reason,omitempty"`
	StderrTail string `json:"stderrTail,omitempty"`
	Tools      int    `json:"tools"`
	// ToolNames are the tools' names as the server calls them.
	ToolNames []string `json:"toolNames,omitempty"`
	// DefinitionBytes is the size of the server's tool definitions sent
	// to the model, apart from the built-in tools' budget.
	DefinitionBytes int `json:"definitionBytes"`
}

// ServerStatuser is a ToolSource that reports its servers' states (for
// agent/checkModel).
type ServerStatuser interface {
	ServerStatus() []MCPServerStatus
}

// modelChecker is a provider that can check its endpoint with one cheap
// request (a provider that could not be configured says why).
type modelChecker interface {
	Check(ctx context.Context) error
}

// CheckModel tells whether the configured model can answer: one cheap
// request to its endpoint, or the reason none can be made.
func (m *Manager) CheckModel(ctx context.Context) ModelCheck {
	cfg := m.config()
	st := m.Status()
	res := ModelCheck{Provider: cfg.Model.Provider, Model: cfg.Model.Name, BaseURL: cfg.Model.BaseURL,
		Sandbox: st.Sandbox, MCPServers: st.MCPServers, LanguageIntel: st.LanguageIntel}
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
	return res
}
