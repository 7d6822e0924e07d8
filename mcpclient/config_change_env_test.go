package mcpclient

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/config"
)

// TestConfigChangeReachesTheServersEnvironment: a server's environment is
// agentls's own without the model's key variable (model.api_key_env) and
// without run.env_deny (docs/mcp.md, Lifecycle) — the configuration in
// force when the server starts. Here the server is defined, then the
// configuration changes (live reload: Pool.Configure with the same
// mcp.servers entry) to a model whose key is CORP_LLM_KEY, or to a
// run.env_deny that names DB_PASSWORD; the server has not started yet and
// starts after the change. It must not get either variable. It fails while
// Configure keeps the idle server (its definition is unchanged) with the
// environment (and the sandbox policy) computed from the configuration it
// was first made under: a server started — or restarted after a crash —
// long after the change still gets the variables the user denied.
func TestConfigChangeReachesTheServersEnvironment(t *testing.T) {
	for _, tt := range []struct {
		name, variable string
		tighten        func(*config.Config)
	}{
		{"model.api_key_env", "CORP_LLM_KEY", func(c *config.Config) { c.Model.APIKeyEnv = "CORP_LLM_KEY" }},
		{"run.env_deny", "DB_PASSWORD", func(c *config.Config) { c.Run.EnvDeny = append(c.Run.EnvDeny, "DB_PASSWORD") }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			logf := filepath.Join(t.TempDir(), "calls.log")
			p := NewPool(root, []string{root}, func() []string {
				return append(os.Environ(), "HOSTILE_LOG="+logf, "HOSTILE_LOG_ENV="+tt.variable, tt.variable+"=s3cr3t-value")
			})
			t.Cleanup(p.Close)
			spec := []ServerSpec{{Name: "evil", Command: hostileBin, Origin: FromConfig}}
			before := config.Default()
			before.Sandbox.AllowWrite = []string{filepath.Dir(logf)}
			p.Configure(before, spec)
			after := before
			after.Run.EnvDeny = append([]string(nil), before.Run.EnvDeny...)
			tt.tighten(&after)
			p.Configure(after, spec) // the configuration the user has now

			if n := len(p.SessionTools(context.Background(), "s")); n == 0 {
				t.Fatalf("the server did not start: %+v", p.Status())
			}
			log, _ := os.ReadFile(logf)
			if !strings.Contains(string(log), "env "+tt.variable+"=") {
				t.Fatalf("the server did not log its environment: %q", log)
			}
			if strings.Contains(string(log), "s3cr3t-value") {
				t.Errorf("a server started after %s was changed to keep %s out still got it: %q", tt.name, tt.variable, strings.TrimSpace(string(log)))
			}
		})
	}
}
