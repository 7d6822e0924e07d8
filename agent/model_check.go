package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"

	"github.com/agentls/agentls/config"
)

// ErrNoAPIKey is the reason no request is sent to a model endpoint that
// needs a key when none is configured.
var ErrNoAPIKey = errors.New("no API key")

// checkAPIKey refuses an OpenAI-compatible endpoint that is not on this
// machine when no key is configured (unless model.api_key_env is "", which
// says the endpoint needs none): an unauthenticated request to a public
// endpoint would only fail, after leaking the conversation.
func checkAPIKey(cfg config.Config, getenv func(string) string) error {
	if cfg.APIKey(getenv) != "" || cfg.Model.APIKeyEnv == "" || isLoopbackURL(cfg.Model.BaseURL) {
		return nil
	}
	env := cfg.Model.APIKeyEnv
	return fmt.Errorf("%w: set %s, or model.api_key_env in .agentls.yaml, or point OPENAI_BASE_URL at a local server such as Ollama", ErrNoAPIKey, env)
}

// isLoopbackURL tells whether a base URL names this machine.
func isLoopbackURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ModelCheck is agent/checkModel's result (PROTOCOL.md §2).
type ModelCheck struct {
	OK       bool   `json:"ok"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
	BaseURL  string `json:"baseUrl"`
	Message  string `json:"message,omitempty"`
}

// modelChecker is a provider that can check its endpoint with one cheap
// request.
type modelChecker interface {
	Check(ctx context.Context) error
}

// CheckModel tells whether the configured model can answer: one cheap
// request to its endpoint, or the reason none can be made.
func (m *Manager) CheckModel(ctx context.Context) ModelCheck {
	cfg := m.config()
	res := ModelCheck{Provider: cfg.Model.Provider, Model: cfg.Model.Name, BaseURL: cfg.Model.BaseURL}
	if res.Provider == "" {
		res.Provider = "openai"
	}
	if res.Provider == "scripted" {
		res.BaseURL = ""
	}
	var err error
	switch p := m.Provider().(type) {
	case BrokenProvider:
		err = p.Err
	case modelChecker:
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
