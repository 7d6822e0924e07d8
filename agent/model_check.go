package agent

import (
	"context"
	"log/slog"

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
	res := ModelCheck{Provider: cfg.Model.Provider, Model: cfg.Model.Name, BaseURL: cfg.Model.BaseURL, Sandbox: m.SandboxStatus()}
	if res.Provider == "" {
		res.Provider = "openai"
	}
	if res.Provider == "scripted" {
		res.BaseURL = ""
	}
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
