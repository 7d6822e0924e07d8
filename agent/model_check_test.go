package agent

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentls/agentls/config"
)

// TestCheckAPIKey: a key is needed for an endpoint off this machine, unless
// model.api_key_env is "" (the endpoint needs none).
func TestCheckAPIKey(t *testing.T) {
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
			err := checkAPIKey(cfg, func(k string) string { return tc.env[k] })
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
