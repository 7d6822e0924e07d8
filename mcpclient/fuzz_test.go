package mcpclient

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentls/agentls/questions"
)

var toolNameRE = regexp.MustCompile(`^mcp__[A-Za-z0-9_-]+$`)

// FuzzToolName: whatever a server calls itself and its tools, the
// model-facing name is mcp__…, of [A-Za-z0-9_-] only, at most 64 bytes.
func FuzzToolName(f *testing.F) {
	for _, s := range [][2]string{{"fs", "read_text_file"}, {"", ""}, {"a b", "c/d"}, {"ü", "\x00"}, {"x", "__y__"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, server, tool string) {
		n := ToolName(server, tool)
		if len(n) > maxToolName || !toolNameRE.MatchString(n) {
			t.Fatalf("ToolName(%q, %q) = %q", server, tool, n)
		}
	})
}

// FuzzCheckSchema: an accepted input schema is a JSON object within the
// size and depth limits; nothing panics.
func FuzzCheckSchema(f *testing.F) {
	for _, s := range []string{`{"type":"object"}`, `{"type":"string"}`, `[1]`, `null`, `{"properties":{"a":{"type":"object","properties":{"b":{}}}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var v any
		if json.Unmarshal(raw, &v) != nil {
			return
		}
		out, err := checkSchema(v)
		if err != nil {
			return
		}
		var obj map[string]any
		if len(out) > maxSchemaBytes || json.Unmarshal(out, &obj) != nil || obj == nil || questions.JSONDepth(obj) > maxSchemaDepth {
			t.Fatalf("accepted %s as %s", raw, out)
		}
	})
}

// FuzzCapDescription: a description is cut to 1 KiB of valid UTF-8.
func FuzzCapDescription(f *testing.F) {
	f.Add("short")
	f.Add(string(make([]byte, 3000)))
	f.Fuzz(func(t *testing.T, s string) {
		d := capDescription(s)
		if len(d) > maxDescription || !utf8.ValidString(d) {
			t.Fatalf("capDescription gave %d bytes, valid %v", len(d), utf8.ValidString(d))
		}
	})
}

// FuzzWorkspaceFileKeepsDeniedVariables: whatever a workspace .mcp.json
// writes (a value, a variable name, where it puts it), a server that is
// not skipped carries no denied variable's value anywhere agentls hands
// it on (command, arguments, env, cwd, URL, headers), and every other
// ${env:VAR} it reads is listed in EnvRefs.
func FuzzWorkspaceFileKeepsDeniedVariables(f *testing.F) {
	for _, s := range [][2]string{
		{"${env:SECRET_KEY}", "env"}, {"Bearer ${env:SECRET_KEY}", "header"}, {"--k=${env:SECRET_KEY}", "arg"},
		{"https://x.example/${env:SECRET_KEY}", "url"}, {"${env:PLAIN}", "env"}, {"${env:SECRET_KEY", "cwd"}, {"$${env:SECRET_KEY}}", "arg"},
	} {
		f.Add(s[0], s[1])
	}
	const secret = "s3cr3t-value"
	env := map[string]string{"SECRET_KEY": secret, "PLAIN": "plain"}
	denied := func(name string) bool { return name == "SECRET_KEY" }
	f.Fuzz(func(t *testing.T, value, where string) {
		entry := map[string]any{"command": "srv"}
		switch where {
		case "env":
			entry["env"] = map[string]string{"X": value}
		case "header":
			entry = map[string]any{"type": "http", "url": "https://x.example/mcp", "headers": map[string]string{"H": value}}
		case "url":
			entry = map[string]any{"type": "http", "url": value}
		case "cwd":
			entry["cwd"] = value
		default:
			entry["args"] = []string{value}
		}
		data, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"s": entry}})
		if err != nil {
			return
		}
		specs, err := parseWorkspaceFile(data, "mcpServers", "/ws", "/ws/.mcp.json", func(k string) string { return env[k] }, denied)
		if err != nil || len(specs) != 1 {
			t.Fatalf("parse %s: %v %+v", data, err, specs)
		}
		s := specs[0]
		if s.Skip != "" {
			return
		}
		if strings.Contains(value, secret) {
			return // the file wrote the value itself: not agentls's to keep
		}
		all := []string{s.Command, s.Cwd, s.URL}
		all = append(all, s.Args...)
		for _, v := range s.Env {
			all = append(all, v)
		}
		for _, v := range s.Headers {
			all = append(all, v)
		}
		for _, v := range all {
			if strings.Contains(v, secret) {
				t.Fatalf("%s: a started server gets the denied variable's value (%+v)", data, s)
			}
		}
		if strings.Contains(value, "${env:PLAIN}") && len(s.EnvRefs) == 0 {
			t.Fatalf("%s: the ${env:PLAIN} it reads is not listed (%+v)", data, s)
		}
	})
}
