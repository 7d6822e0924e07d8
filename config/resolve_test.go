package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// layers builds the layers the server stacks, in precedence order:
// env < user file < workspace file < initializationOptions.
func layers(t *testing.T, env map[string]string, user, workspace string, init map[string]any) []Source {
	t.Helper()
	dir := t.TempDir()
	out := []Source{EnvLayer(func(k string) string { return env[k] })}
	for _, f := range []struct{ name, text string }{{"user.yaml", user}, {"workspace.yaml", workspace}} {
		path := filepath.Join(dir, f.name)
		if f.text != "" {
			if err := os.WriteFile(path, []byte(f.text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		src, _, err := FileLayer(path)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, src)
	}
	src, _ := MapLayer("initializationOptions", init)
	return append(out, src)
}

func TestResolvePrecedence(t *testing.T) {
	tests := []struct {
		name      string
		env       map[string]string
		user      string
		workspace string
		init      map[string]any
		want      func(c *Config)
	}{
		{name: "defaults only", want: func(c *Config) {}},
		{name: "env over defaults",
			env: map[string]string{"AGENTLS_MODEL": "llama3.1", "OPENAI_BASE_URL": "http://localhost:11434/v1", "AGENTLS_PROVIDER": "scripted", "OPENAI_API_KEY": "sk"},
			want: func(c *Config) {
				c.Model.Name, c.Model.BaseURL, c.Model.Provider = "llama3.1", "http://localhost:11434/v1", "scripted"
			}},
		{name: "user file over env, env kept where the file is silent",
			env:  map[string]string{"AGENTLS_MODEL": "env-model", "OPENAI_BASE_URL": "http://env:1/v1"},
			user: "model:\n  name: user-model\n",
			want: func(c *Config) { c.Model.Name, c.Model.BaseURL = "user-model", "http://env:1/v1" }},
		{name: "workspace over user, nested maps merged",
			user:      "model:\n  name: user-model\n  plan_name: user-planner\nplan_mode:\n  plans_dir: docs/plans\n",
			workspace: "model:\n  name: ws-model\nplan_mode:\n  require_approval: false\n",
			want: func(c *Config) {
				c.Model.Name, c.Model.PlanName = "ws-model", "user-planner"
				c.PlanMode.PlansDir, c.PlanMode.RequireApproval = "docs/plans", false
			}},
		{name: "initializationOptions over everything",
			env:       map[string]string{"AGENTLS_MODEL": "env-model"},
			user:      "model:\n  name: user-model\nedits: disk\n",
			workspace: "model:\n  name: ws-model\nmax_turn_requests: 10\n",
			init:      map[string]any{"model": map[string]any{"name": "init-model", "api_key": "sk-init"}, "max_turn_requests": 20.0},
			want: func(c *Config) {
				c.Model.Name, c.Model.APIKey, c.Edits, c.MaxTurnRequests = "init-model", "sk-init", "disk", 20
			}},
		{name: "arrays replace, never append",
			user:      "run:\n  allow: [\"go test ./...\", \"git status\"]\n  timeout_secs: 30\n",
			workspace: "run:\n  allow: [\"make\"]\n",
			want:      func(c *Config) { c.Run.Allow, c.Run.TimeoutSecs = []string{"make"}, 30 }},
		{name: "false and zero override true and non-zero",
			user:      "plan_mode:\n  default_active: false\nmodel:\n  max_tokens: 0\n",
			workspace: "model:\n  max_tokens: 2048\n",
			init:      map[string]any{"model": map[string]any{"max_tokens": 0.0}},
			want:      func(c *Config) { c.PlanMode.DefaultActive = false }},
		{name: "invalid workspace file dropped, lower layers apply",
			env:       map[string]string{"AGENTLS_MODEL": "env-model"},
			user:      "edits: client\n",
			workspace: "edits: sometimes\nmodel:\n  name: ws-model\n",
			want:      func(c *Config) { c.Model.Name, c.Edits = "env-model", "client" }},
		{name: "context windows and the compaction threshold",
			workspace: "model:\n  context_window: 65536\n  plan_context_window: 8192\ncompaction:\n  threshold: 0.5\n",
			want: func(c *Config) {
				c.Model.ContextWindow, c.Model.PlanContextWindow, c.Compaction.Threshold = 65536, 8192, 0.5
			}},
		{name: "a threshold over 1 is refused",
			workspace: "compaction:\n  threshold: 1.5\nedits: disk\n",
			want:      func(c *Config) {}},
		{name: "invalid initializationOptions dropped",
			workspace: "edits: disk\n",
			init:      map[string]any{"edits": "always", "model": map[string]any{"name": "init-model"}},
			want:      func(c *Config) { c.Edits = "disk" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Resolve(layers(t, tt.env, tt.user, tt.workspace, tt.init)...)
			if err != nil {
				t.Fatal(err)
			}
			want := Default()
			tt.want(&want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Resolve =\n%+v\nwant\n%+v", got, want)
			}
		})
	}
}

func TestResolveErrors(t *testing.T) {
	tests := []struct {
		name   string
		layers []Source
		want   string
	}{
		{"bad provider from the environment",
			[]Source{EnvLayer(func(k string) string { return map[string]string{"AGENTLS_PROVIDER": "anthropic"}[k] })},
			"invalid configuration: model.provider: must be one of openai, scripted"},
		{"bad base URL from the environment",
			[]Source{EnvLayer(func(k string) string { return map[string]string{"OPENAI_BASE_URL": "localhost:11434"}[k] })},
			"invalid configuration: model.base_url: must match ^https?://"},
		{"hand-made layer with an unknown key",
			[]Source{{Name: "test", Data: map[string]any{"edit": "disk"}}},
			`invalid configuration: unknown key "edit" (did you mean "edits"?)`},
		{"layer that is not JSON data",
			[]Source{{Name: "test", Data: map[string]any{"edits": make(chan int)}}},
			"config layer test: not JSON data: json: unsupported type: chan int"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Resolve(tt.layers...)
			if err == nil || err.Error() != tt.want {
				t.Errorf("error = %v, want %q", err, tt.want)
			}
			if !reflect.DeepEqual(cfg, Default()) {
				t.Errorf("on error Resolve must return Default(), got %+v", cfg)
			}
		})
	}
}

func TestResolveDoesNotShareLayerData(t *testing.T) {
	user := Source{Name: "user", Data: map[string]any{"run": map[string]any{"allow": []any{"a"}}}}
	ws := Source{Name: "ws", Data: map[string]any{"run": map[string]any{"timeout_secs": 5}}}
	if _, err := Resolve(user, ws); err != nil {
		t.Fatal(err)
	}
	run := user.Data["run"].(map[string]any)
	if _, leaked := run["timeout_secs"]; leaked || len(run) != 1 {
		t.Errorf("Resolve modified a layer: %v", user.Data)
	}
}

func TestResolveWithFileDiagnostics(t *testing.T) {
	// The whole path as the server uses it: a workspace file with a typo
	// yields a diagnostic at the typo and the other layers still apply.
	dir := t.TempDir()
	path := filepath.Join(dir, ".agentls.yaml")
	if err := os.WriteFile(path, []byte("model:\n  name: ws\nmodle:\n  name: typo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src, diags, err := FileLayer(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) != 1 || diags[0].Line != 3 || diags[0].Column != 1 || !strings.Contains(diags[0].Message, `"modle"`) {
		t.Errorf("diagnostics = %+v", diags)
	}
	cfg, err := Resolve(EnvLayer(func(k string) string { return map[string]string{"AGENTLS_MODEL": "env"}[k] }), src)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Model.Name != "env" {
		t.Errorf("model name = %q, want env (the invalid file is dropped)", cfg.Model.Name)
	}
}
