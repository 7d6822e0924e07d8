package host

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/config"
)

// ProviderFactory builds the chat model of a configuration; root is the
// workspace root (a scripted model's transcript path is relative to it).
type ProviderFactory func(cfg config.Config, getenv func(string) string, root string) (llm.Provider, error)

// ErrNoAPIKey is the reason no request is sent to a model endpoint that
// needs a key when none is configured.
var ErrNoAPIKey = errors.New("no API key")

// NewProvider builds the configured chat model from the provider table
// (providers.go): `openai` (any OpenAI-compatible endpoint) or `scripted` (a
// YAML transcript). A new provider is a new row there.
func NewProvider(cfg config.Config, getenv func(string) string, root string) (llm.Provider, error) {
	spec, ok := LookupProvider(cfg.Model.Provider)
	if !ok {
		return nil, fmt.Errorf("unknown model provider %q (use %s)", cfg.Model.Provider, providerNames())
	}
	return spec.Build(withProviderDefaults(spec, cfg), getenv, root)
}

// secs is a config duration in seconds (0: the provider's default).
func secs(n int) time.Duration { return time.Duration(n) * time.Second }

// checkAPIKey refuses an OpenAI-compatible endpoint that is not on this
// machine when no key is configured (unless model.api_key_env is "", which
// says the endpoint needs none): an unauthenticated request to a public
// endpoint would only fail, after leaking the conversation.
func checkAPIKey(cfg config.Config, key string) error {
	if key != "" || cfg.Model.APIKeyEnv == "" || isLoopbackURL(cfg.Model.BaseURL) {
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

// BrokenProvider fails every request with Err: it stands in for a model that
// could not be configured, so the editor still starts and every turn says why.
type BrokenProvider struct{ Err error }

// NotConfiguredError is every request of a BrokenProvider: the model could
// not be configured (Err says why).
type NotConfiguredError struct{ Err error }

func (e *NotConfiguredError) Error() string { return "the model is not configured: " + e.Err.Error() }

// Unwrap returns the configuration error.
func (e *NotConfiguredError) Unwrap() error { return e.Err }

// Complete returns the configuration error.
func (b BrokenProvider) Complete(context.Context, llm.Request, func(llm.Event)) (llm.Response, error) {
	return llm.Response{}, &NotConfiguredError{Err: b.Err}
}

// Check returns the configuration error (agent/checkModel).
func (b BrokenProvider) Check(context.Context) error { return b.Err }
