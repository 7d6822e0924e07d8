package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/golden"
)

// render is a layer as text: its diagnostics, then its data as JSON.
func render(src Source, diags []Diagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.String() + "\n")
	}
	data, err := json.MarshalIndent(src.Data, "", "  ")
	if err != nil {
		data = []byte(err.Error())
	}
	b.WriteString("data: " + string(data) + "\n")
	return b.String()
}

func TestFileLayerGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, diags, err := FileLayer(f)
			if err != nil {
				t.Fatal(err)
			}
			got := render(src, diags)
			goldenPath := strings.TrimSuffix(f, ".yaml") + ".golden"
			golden.Check(t, goldenPath, got)
		})
	}
}

func TestFileLayerPositions(t *testing.T) {
	tests := []struct {
		file         string
		line, column int
		message      string
	}{
		{"syntax.yaml", 4, 2, "YAML syntax error: did not find expected key"},
		{"bad_edits.yaml", 3, 8, "edits: must be one of auto, client, disk"},
		{"bad_timeout.yaml", 2, 36, "plan_mode.approval_timeout_secs: must be >= 1 (got -1)"},
		{"unknown_key.yaml", 2, 1, `unknown key "modle" (did you mean "model"?)`},
		{"duplicate_key.yaml", 4, 1, `duplicate key "edits" (first at line 1)`},
		{"not_a_map.yaml", 1, 1, "expected object, but got array"},
		{"timestamp.yaml", 4, 9, `model.name: expected string, but got number (quote it: "4.1")`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join("testdata", tt.file)
			src, diags, err := FileLayer(path)
			if err != nil {
				t.Fatal(err)
			}
			want := []Diagnostic{{File: path, Line: tt.line, Column: tt.column, Message: tt.message, Severity: SeverityError}}
			if !reflect.DeepEqual(diags, want) {
				t.Errorf("diagnostics = %+v\nwant          %+v", diags, want)
			}
			if src.Data != nil {
				t.Errorf("an invalid layer must be dropped, got data %v", src.Data)
			}
		})
	}
}

func TestFileLayerSyntaxErrorLines(t *testing.T) {
	tests := []struct {
		yaml         string
		line, column int
		message      string
	}{
		{"model:\n  name: a\n  provider: openai\n base_url: x\n", 4, 2, "did not find expected key"},
		{"edits: auto\nrun:\n  allow: [\"go test\", \"ls\"\nmodel:\n  name: a\n", 3, 3, "did not find expected ',' or ']'"},
		{"edits: auto\nrun:\n\t- x\n", 3, 2, "found character that cannot start any token"},
		{"edits: auto\nmodel: name: a\n", 2, 1, "mapping values are not allowed in this context"},
		{"edits: auto\nmodel:\n  name: *nope\n", 3, 3, "unknown anchor 'nope' referenced"},
		{"edits: \"auto\nmodel: {}\n", 1, 1, "found unexpected end of stream"},
	}
	dir := t.TempDir()
	for i, tt := range tests {
		path := filepath.Join(dir, "c.yaml")
		if err := os.WriteFile(path, []byte(tt.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		_, diags, err := FileLayer(path)
		if err != nil {
			t.Fatal(err)
		}
		want := []Diagnostic{{File: path, Line: tt.line, Column: tt.column, Message: "YAML syntax error: " + tt.message, Severity: SeverityError}}
		if !reflect.DeepEqual(diags, want) {
			t.Errorf("case %d %q:\n got %+v\nwant %+v", i, tt.yaml, diags, want)
		}
	}
}

func TestFileLayerMissingAndUnreadable(t *testing.T) {
	for _, path := range []string{"", filepath.Join(t.TempDir(), "nope", ".agentls.yaml")} {
		src, diags, err := FileLayer(path)
		if err != nil || diags != nil || src.Data != nil || src.Name != path {
			t.Errorf("FileLayer(%q) = %+v, %v, %v; want an empty layer", path, src, diags, err)
		}
	}
	dir := t.TempDir()
	src, diags, err := FileLayer(dir)
	if err == nil || !strings.Contains(err.Error(), "read config "+dir) {
		t.Errorf("FileLayer(directory) error = %v", err)
	}
	if src.Data != nil || diags != nil {
		t.Errorf("FileLayer(directory) = %+v, %v", src, diags)
	}
}

func TestConverterAliases(t *testing.T) {
	doc, d := parseYAML([]byte("base: &b\n  timeout_secs: 30\n  allow: &cmds [a, b]\nrun:\n  <<: *b\n  timeout_secs: 60\n  list: *cmds\n"))
	if d != nil {
		t.Fatal(d)
	}
	c := &converter{}
	got := c.value(doc, 0)
	want := map[string]any{
		"base": map[string]any{"timeout_secs": json.Number("30"), "allow": []any{"a", "b"}},
		"run":  map[string]any{"timeout_secs": json.Number("60"), "allow": []any{"a", "b"}, "list": []any{"a", "b"}},
	}
	if !reflect.DeepEqual(got, want) || c.diags != nil {
		t.Errorf("value = %#v (diags %v)\nwant %#v", got, c.diags, want)
	}
	if n := locate(doc, "/run/allow", ""); n == nil || n.Line != 3 {
		t.Errorf("locate merged key: %+v", n)
	}

	// An alias bomb stops at maxNodes with one diagnostic.
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 8; i++ {
		b.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [")
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*a" + string(rune('0'+i-1)))
		}
		b.WriteString("]\n")
	}
	doc, d = parseYAML([]byte(b.String()))
	if d != nil {
		t.Fatal(d)
	}
	c = &converter{}
	c.value(doc, 0)
	if len(c.diags) != 1 || !strings.Contains(c.diags[0].Message, "too large") {
		t.Errorf("alias bomb diagnostics = %v", c.diags)
	}
}

func TestMapLayer(t *testing.T) {
	tests := []struct {
		name  string
		in    map[string]any
		want  map[string]any
		diags []string
	}{
		{"empty", nil, nil, nil},
		{"valid, decoded JSON numbers", map[string]any{
			"model":     map[string]any{"name": "llama3.1", "api_key": "sk-init", "max_tokens": 4096.0},
			"plan_mode": map[string]any{"approval_timeout_secs": float64(600)},
		}, map[string]any{
			"model":     map[string]any{"name": "llama3.1", "api_key": "sk-init", "max_tokens": json.Number("4096")},
			"plan_mode": map[string]any{"approval_timeout_secs": json.Number("600")},
		}, nil},
		{"invalid", map[string]any{
			"edits":     "sometimes",
			"plan_mode": map[string]any{"approval_timeout_secs": -1.0},
			"modle":     map[string]any{},
			"run":       map[string]any{"allow": "go test"},
		}, nil, []string{
			"edits: must be one of auto, client, disk",
			"plan_mode.approval_timeout_secs: must be >= 1 (got -1)",
			"run.allow: expected array, but got string",
			`unknown key "modle" (did you mean "model"?)`,
		}},
		{"unknown nested key", map[string]any{"plan_mode": map[string]any{"require_aproval": true, "zzz": 1.0}}, nil, []string{
			`unknown key "plan_mode.require_aproval" (did you mean "require_approval"?)`,
			`unknown key "plan_mode.zzz"`,
		}},
		{"not JSON", map[string]any{"edits": func() {}}, nil, []string{"not JSON data: json: unsupported type: func()"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, diags := MapLayer("initializationOptions", tt.in)
			if src.Name != "initializationOptions" || !reflect.DeepEqual(src.Data, tt.want) {
				t.Errorf("layer = %+v, want data %v", src, tt.want)
			}
			var msgs []string
			for _, d := range diags {
				if d.File != "initializationOptions" || d.Line != 0 || d.Column != 0 || d.Severity != SeverityError {
					t.Errorf("diagnostic %+v: want File initializationOptions, no position, error", d)
				}
				msgs = append(msgs, d.Message)
			}
			if !reflect.DeepEqual(msgs, tt.diags) {
				t.Errorf("messages = %q\nwant       %q", msgs, tt.diags)
			}
		})
	}
}

func TestEnvLayer(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want map[string]any
	}{
		{nil, nil},
		{map[string]string{"OPENAI_API_KEY": "sk-secret"}, nil},
		{map[string]string{"AGENTLS_MODEL": "llama3.1"}, map[string]any{"model": map[string]any{"name": "llama3.1"}}},
		{map[string]string{"AGENTLS_MODEL": "m", "OPENAI_BASE_URL": "http://localhost:11434/v1", "AGENTLS_PROVIDER": "scripted", "OPENAI_API_KEY": "sk"},
			map[string]any{"model": map[string]any{"name": "m", "base_url": "http://localhost:11434/v1", "provider": "scripted"}}},
	}
	for _, tt := range tests {
		src := EnvLayer(func(k string) string { return tt.env[k] })
		if src.Name != "env" || !reflect.DeepEqual(src.Data, tt.want) {
			t.Errorf("EnvLayer(%v) = %+v, want %v", tt.env, src, tt.want)
		}
	}
}

func TestUserFile(t *testing.T) {
	withPasswdHome(t, "")
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_CONFIG_HOME": "/xdg", "HOME": "/home/u"}, "/xdg/agentls/config.yaml"},
		{map[string]string{"HOME": "/home/u"}, "/home/u/.config/agentls/config.yaml"},
		{map[string]string{"XDG_CONFIG_HOME": "relative", "HOME": "/home/u"}, "/home/u/.config/agentls/config.yaml"},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := UserFile(func(k string) string { return tt.env[k] }); got != filepath.FromSlash(tt.want) {
			t.Errorf("UserFile(%v) = %q, want %q", tt.env, got, tt.want)
		}
	}
}

// TestUserDirs: the folders the guard protects hold UserFile, whichever
// variable names it.
func TestUserDirs(t *testing.T) {
	withPasswdHome(t, "")
	tests := []struct {
		env  map[string]string
		want []string
	}{
		{map[string]string{"XDG_CONFIG_HOME": "/xdg", "HOME": "/home/u"}, []string{"/xdg/agentls", "/home/u/.config/agentls"}},
		{map[string]string{"HOME": "/home/u"}, []string{"/home/u/.config/agentls"}},
		{map[string]string{"XDG_CONFIG_HOME": "/home/u/.config", "HOME": "/home/u"}, []string{"/home/u/.config/agentls"}},
		{map[string]string{"XDG_CONFIG_HOME": "relative", "HOME": "/home/u"}, []string{"/home/u/.config/agentls"}},
		{nil, nil},
	}
	for _, tt := range tests {
		getenv := func(k string) string { return tt.env[k] }
		got := UserDirs(getenv)
		if !slices.Equal(got, tt.want) {
			t.Errorf("UserDirs(%v) = %q, want %q", tt.env, got, tt.want)
		}
		if f := UserFile(getenv); f != "" && !slices.Contains(got, filepath.Dir(f)) {
			t.Errorf("UserFile %s is not in UserDirs %q", f, got)
		}
	}
}
