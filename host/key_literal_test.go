package host

import (
	"strings"
	"testing"

	"github.com/agentls/agentls/config"
)

func TestLiteralKeyName(t *testing.T) {
	cfg := config.Default()
	cfg.Model.APIKeyEnv = "CUSTOM_VAR"
	for _, tt := range []struct {
		key  string
		want bool
	}{
		{"OPENAI_API_KEY", true},
		{"ANTHROPIC_API_KEY", true},
		{"GITHUB_TOKEN", true},
		{"MY_LLM_KEY", true},
		{"CUSTOM_VAR", true}, // the variable model.api_key_env names
		{"", false},
		{"sk-proj-AbC123_def", false},
		{"EMPTY", false},  // vLLM's placeholder key
		{"ollama", false}, // Ollama's
		{"openai_api_key", false},
		{"OPENAI_API_KEY ", false},
		{"_API_KEY", false},
		{"SK_LIVE_ABCDEF0123456789", false},
	} {
		if got := literalKeyName(cfg, tt.key); got != tt.want {
			t.Errorf("literalKeyName(%q) = %v, want %v", tt.key, got, tt.want)
		}
	}
}

// FuzzLiteralKeyName: a key holding anything but capitals, digits and
// underscores is never taken for a variable's name.
func FuzzLiteralKeyName(f *testing.F) {
	for _, s := range []string{"OPENAI_API_KEY", "sk-abc", "A_KEY", "a_KEY", "X_TOKEN\n"} {
		f.Add(s)
	}
	cfg := config.Default()
	f.Fuzz(func(t *testing.T, key string) {
		if !literalKeyName(cfg, key) {
			return
		}
		if strings.Trim(key, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != "" {
			t.Fatalf("%q taken for a variable's name", key)
		}
	})
}
