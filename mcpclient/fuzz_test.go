package mcpclient

import (
	"encoding/json"
	"github.com/agentls/agentls/questions"
	"regexp"
	"testing"
	"unicode/utf8"
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
