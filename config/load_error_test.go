package config

import (
	"strings"
	"testing"
)

func TestLoadErrorOf(t *testing.T) {
	warn := Diagnostic{File: "/w/.agentls.yaml", Line: 2, Severity: SeverityWarning, Message: "model.api_key: …"}
	e1 := Diagnostic{File: "/w/.agentls.yaml", Line: 3, Column: 3, Severity: SeverityError, Message: "model.api_key_env: must match ^x$"}
	e2 := Diagnostic{File: "/w/.agentls.yaml", Line: 5, Severity: SeverityError, Message: "edits: must be one of auto, client, disk"}
	init := Diagnostic{File: InitOptionsName, Severity: SeverityError, Message: "model.base_url: expected string"}
	tests := []struct {
		name  string
		diags []Diagnostic
		want  string // "" for no error
	}{
		{"none", nil, ""},
		{"warnings only", []Diagnostic{warn}, ""},
		{"one error", []Diagnostic{warn, e1},
			"/w/.agentls.yaml:3: model.api_key_env: must match ^x$ — fix the file; agentls sends no request to the model until it loads"},
		{"two errors", []Diagnostic{e1, e2},
			"/w/.agentls.yaml:3: model.api_key_env: must match ^x$ (and 1 more problem) — fix the file; agentls sends no request to the model until it loads"},
		{"initializationOptions", []Diagnostic{init},
			"initializationOptions: model.base_url: expected string — fix the editor's initializationOptions; agentls sends no request to the model until it loads"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := LoadErrorOf(tt.diags)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("LoadErrorOf = %v, want nil", err)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Fatalf("LoadErrorOf = %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestEmptyAPIKeyEnv: api_key_env: "" (an endpoint without a key) loads and
// resolves to "", which reads no variable; a malformed name still fails.
func TestEmptyAPIKeyEnv(t *testing.T) {
	src, diags := ParseLayer("c.yaml", []byte("model:\n  base_url: http://localhost:11434/v1\n  api_key_env: \"\"\n"))
	if len(diags) != 0 {
		t.Fatalf("diagnostics %v", diags)
	}
	cfg, err := Resolve(src)
	if err != nil || cfg.Model.APIKeyEnv != "" || cfg.APIKey(func(string) string { return "sk-leak" }) != "" {
		t.Fatalf("Resolve = %+v, %v", cfg.Model, err)
	}
	for _, bad := range []string{`"1BAD"`, `"A B"`, `" "`, `"A=B"`} {
		_, diags := ParseLayer("c.yaml", []byte("model:\n  api_key_env: "+bad+"\n"))
		if LoadErrorOf(diags) == nil || !strings.Contains(diags[0].Message, "model.api_key_env") {
			t.Errorf("api_key_env %s: diagnostics %v, want an error", bad, diags)
		}
	}
}
