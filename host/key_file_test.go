package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/config"
)

func TestAPIKeyFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	env := func(k string) string { return map[string]string{"OPENAI_API_KEY": "sk-env"}[k] }
	cases := []struct {
		name, inline, file, want, err string
	}{
		{"file", "", write("k1", "sk-file\n"), "sk-file", ""},
		{"file with spaces and more lines", "", write("k2", "  sk-2 \nignored\n"), "sk-2", ""},
		{"inline wins", "sk-inline", write("k3", "sk-file"), "sk-inline", ""},
		{"no file: the variable", "", "", "sk-env", ""},
		{"missing file", "", filepath.Join(dir, "nope"), "", "agentls login"},
		{"empty file", "", write("k4", "\n"), "", "is empty"},
		{"relative path", "", "credentials", "", "absolute"},
		{"huge file", "", write("k5", strings.Repeat("x", 20<<10)), "", "over"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := config.Default()
			cfg.Model.APIKey, cfg.Model.APIKeyFile = c.inline, c.file
			got, err := apiKey(cfg, env)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("apiKey = %q, %v; want an error with %q", got, err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("apiKey = %q, %v; want %q", got, err, c.want)
			}
		})
	}
}
