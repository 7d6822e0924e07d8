package questions

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSchemaTextRefused: a schema whose shown text (enum values, consts,
// titles, descriptions, property names, defaults) holds a control, bidi or
// zero-width character is refused, saying where and which; a pattern may
// hold one, and plain text in every script passes.
func TestSchemaTextRefused(t *testing.T) {
	for _, tc := range []struct {
		name, schema, want string // want "" means accepted
	}{
		{"enum value", `{"type":"string","enum":["keep \u202Estnemucod","delete"]}`, `questions[0].schema.enum[0]: holds \u202E`},
		{"titled const", `{"type":"string","oneOf":[{"const":"rm","title":"Keep \u202Eselif"}]}`, `questions[0].schema.oneOf[0].title: holds \u202E`},
		{"description", `{"type":"object","properties":{"t":{"type":"string","description":"safe\u200B folder"}}}`, `holds \u200B`},
		{"property name", `{"type":"object","properties":{"path\u202Ecod":{"type":"string"}}}`, `has the key "path\\u202Ecod"`},
		{"default", `{"type":"string","default":"build\u2066/.."}`, `questions[0].schema.default: holds \u2066`},
		{"control character", `{"type":"string","title":"a\u001b[31mred"}`, `holds \u001B`},
		{"a pattern may hold one", `{"type":"string","pattern":"^[^\u0000-\u001f]*$"}`, ""},
		{"plain text in any script, newlines and tabs", `{"type":"string","enum":["garder les documents","文書を保持","keep\tdocs"],"description":"line one\nline two"}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args, _ := json.Marshal(map[string]any{"questions": []any{map[string]any{"name": "pick", "question": "Which?", "schema": json.RawMessage(tc.schema)}}})
			_, err := Parse(args)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
