package config

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
)

func TestDefault(t *testing.T) {
	want := Config{
		Model: Model{Provider: "openai", BaseURL: "https://api.openai.com/v1", APIKeyEnv: "OPENAI_API_KEY", Name: "gpt-4.1",
			ConnectTimeoutSecs: 30, FirstByteTimeoutSecs: 600, IdleTimeoutSecs: 120},
		Editor:          Editor{RequestTimeoutSecs: 60},
		PlanMode:        PlanMode{DefaultActive: true, RequireApproval: true, ApprovalTimeoutSecs: 86400, PlansDir: "plans", AllowNetworkTools: []string{}},
		Edits:           "auto",
		Review:          "off",
		Run:             Run{Allow: []string{}, TimeoutSecs: 120, MaxOutputBytes: 30000, EnvDeny: []string{"*_API_KEY", "*_TOKEN", "*_SECRET", "AWS_*"}, Network: []string{}},
		MaxTurnRequests: 50,
		Compaction:      Compaction{Threshold: 0.85},
		MCP:             MCP{ReadOnly: []string{}, TrustHints: []string{}, CallTimeoutSecs: 60},
		Sandbox:         Sandbox{Mode: "auto", DenyRead: []string{}, AllowWrite: []string{}},

		Instructions: Instructions{MaxBytes: 32768},
		ACP:          ACP{ClientFS: "auto"},
		Subagents:    Subagents{MaxParallel: 3, MaxDepth: 1, MaxTurns: 20, MaxTokens: 200000},
		LSP:          LSP{Source: "auto", SettleMs: 1500},
	}
	if got := Default(); !reflect.DeepEqual(got, want) {
		t.Errorf("Default() = %+v, want %+v", got, want)
	}
}

func TestPublishedSchemaIsIdentical(t *testing.T) {
	published, err := os.ReadFile("../agentls.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(published, SchemaJSON) {
		t.Error("agentls.schema.json differs from config/schema.json; copy config/schema.json over it")
	}
}

// TestSchemaMatchesConfig checks that the schema and the Config struct name
// the same keys, that every property is described, and that the schema's
// defaults are Default().
func TestSchemaMatchesConfig(t *testing.T) {
	b, err := json.Marshal(Default())
	if err != nil {
		t.Fatal(err)
	}
	var defaults map[string]any
	if err := json.Unmarshal(b, &defaults); err != nil {
		t.Fatal(err)
	}
	var walk func(path string, schema map[string]any, def map[string]any)
	walk = func(path string, schema map[string]any, def map[string]any) {
		props, _ := schema["properties"].(map[string]any)
		if schema["additionalProperties"] != false {
			t.Errorf("%s: additionalProperties must be false", path)
		}
		var schemaKeys, structKeys []string
		for k := range props {
			schemaKeys = append(schemaKeys, k)
		}
		for k := range def {
			structKeys = append(structKeys, k)
		}
		for k, p := range props {
			// A map keyed by name (mcp.servers) is empty, so left out, by default.
			if _, isMap := p.(map[string]any)["additionalProperties"].(map[string]any); isMap && def[k] == nil {
				structKeys = append(structKeys, k)
			}
		}
		sort.Strings(schemaKeys)
		sort.Strings(structKeys)
		if !reflect.DeepEqual(schemaKeys, structKeys) {
			t.Errorf("%s: schema keys %v, struct keys %v", path, schemaKeys, structKeys)
		}
		for k, p := range props {
			prop := p.(map[string]any)
			if d, _ := prop["description"].(string); strings.TrimSpace(d) == "" {
				t.Errorf("%s%s: no description", path, k)
			}
			if sub, ok := def[k].(map[string]any); ok {
				walk(path+k+".", prop, sub)
				continue
			}
			if d, ok := prop["default"]; ok {
				if got := def[k]; !reflect.DeepEqual(d, got) {
					t.Errorf("%s%s: schema default %v, Default() has %v", path, k, d, got)
				}
			}
		}
	}
	walk("", schemaDoc, defaults)
	if d, _ := schemaDoc["description"].(string); d == "" {
		t.Error("schema has no description")
	}
	if vs := check(defaults); vs != nil {
		t.Errorf("Default() does not validate: %v", vs)
	}
}

func TestAPIKey(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": "sk-env", "OTHER_KEY": "sk-other"}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		name  string
		model Model
		want  string
	}{
		{"default env variable", Model{APIKeyEnv: "OPENAI_API_KEY"}, "sk-env"},
		{"other env variable", Model{APIKeyEnv: "OTHER_KEY"}, "sk-other"},
		{"unset env variable", Model{APIKeyEnv: "MISSING_KEY"}, ""},
		{"explicit key wins", Model{APIKeyEnv: "OPENAI_API_KEY", APIKey: "sk-explicit"}, "sk-explicit"},
		{"no env variable named", Model{}, ""},
	}
	for _, tt := range tests {
		if got := (Config{Model: tt.model}).APIKey(getenv); got != tt.want {
			t.Errorf("%s: APIKey = %q, want %q", tt.name, got, tt.want)
		}
	}
	if got := Default().APIKey(getenv); got != "sk-env" {
		t.Errorf("Default().APIKey = %q", got)
	}
}
