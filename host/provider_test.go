package host

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/config"
)

// TestCheckAPIKey: a key is needed for an endpoint off this machine, unless
// model.api_key_env is "" (the endpoint needs none).
func TestCheckAPIKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		baseURL string
		keyEnv  string
		env     map[string]string
		needKey bool
	}{
		{"public, no key", "https://api.openai.com/v1", "OPENAI_API_KEY", nil, true},
		{"public, key", "https://api.openai.com/v1", "OPENAI_API_KEY", map[string]string{"OPENAI_API_KEY": "sk"}, false},
		{"public, other env unset", "https://llm.example.com/v1", "MY_KEY", map[string]string{"OPENAI_API_KEY": "sk"}, true},
		{"public, api_key_env empty", "https://llm.example.com/v1", "", nil, false},
		{"localhost", "http://localhost:11434/v1", "OPENAI_API_KEY", nil, false},
		{"127.0.0.1", "http://127.0.0.1:8080/v1", "OPENAI_API_KEY", nil, false},
		{"::1", "http://[::1]:8080/v1", "OPENAI_API_KEY", nil, false},
		{"lan address", "http://192.168.1.10:11434/v1", "OPENAI_API_KEY", nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config.Default()
			cfg.Model.BaseURL, cfg.Model.APIKeyEnv = tc.baseURL, tc.keyEnv
			err := checkAPIKey(cfg, cfg.APIKey(func(k string) string { return tc.env[k] }))
			if got := errors.Is(err, ErrNoAPIKey); got != tc.needKey {
				t.Fatalf("checkAPIKey = %v, want a missing key: %v", err, tc.needKey)
			}
			if tc.needKey && tc.keyEnv != "" && !contains(err.Error(), "set "+tc.keyEnv+",") {
				t.Fatalf("message %q does not name %s", err, tc.keyEnv)
			}
		})
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// TestNewProvider: each provider is built from its configuration, and a
// configuration that names no usable model says what to set.
func TestNewProvider(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	script := filepath.Join(root, "turn.yaml")
	if err := os.WriteFile(script, []byte("name: x\nsteps:\n  - text: hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		model   config.Model
		env     map[string]string
		wantErr string // "" means a provider
	}{
		{"openai on this machine", config.Model{Provider: "openai", BaseURL: "http://127.0.0.1:1/v1", APIKeyEnv: "K", Name: "m"}, nil, ""},
		{"openai, default provider name", config.Model{BaseURL: "https://api.example.com/v1", APIKeyEnv: "K", Name: "m"}, map[string]string{"K": "sk"}, ""},
		{"openai without key", config.Model{Provider: "openai", BaseURL: "https://api.example.com/v1", APIKeyEnv: "K", Name: "m"}, nil, "no API key: set K,"},
		{"scripted, relative to the root", config.Model{Provider: "scripted", Script: "turn.yaml"}, nil, ""},
		{"scripted, absolute", config.Model{Provider: "scripted", Script: script}, nil, ""},
		{"scripted without script", config.Model{Provider: "scripted"}, nil, "model.script (the transcript file) is not set"},
		{"scripted, missing file", config.Model{Provider: "scripted", Script: "nope.yaml"}, nil, "scripted model:"},
		{"unknown", config.Model{Provider: "llama"}, nil, `unknown model provider "llama" (use openai or scripted)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config.Default()
			cfg.Model = tc.model
			p, err := NewProvider(cfg, func(k string) string { return tc.env[k] }, root)
			if tc.wantErr == "" {
				if err != nil || p == nil {
					t.Fatalf("NewProvider = %v, %v; want a provider", p, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("NewProvider error = %v, want it to contain %q", err, tc.wantErr)
			}
		})
	}
}

// TestBrokenProvider: a model that could not be configured fails each
// request and each check with the reason.
func TestBrokenProvider(t *testing.T) {
	t.Parallel()
	reason := errors.New("model.script is not set")
	b := BrokenProvider{Err: reason}
	if _, err := b.Complete(context.Background(), llm.Request{}, func(llm.Event) {}); !errors.Is(err, reason) || !strings.Contains(err.Error(), "the model is not configured") {
		t.Fatalf("Complete = %v", err)
	}
	if err := b.Check(context.Background()); !errors.Is(err, reason) {
		t.Fatalf("Check = %v", err)
	}
}
