package acp

import (
	"encoding/json"
	"sort"
	"testing"

	"github.com/agentls/agentls/questions"
)

// TestFormSchemaTextEscaped: the elicitation form shows the person each
// question's choices — enum values, the titles of titled consts (oneOf /
// anyOf, MCP's SEP-1330 shape, which formSchema takes for multi-selects),
// the description it writes ("text, one of: …"), a default the form fills
// in — and those reach elicitation/create with a right-to-left override or
// a zero-width character raw, though the question's own title is escaped
// (questions.Escape) and docs/acp.md promises the one escape of control and
// bidi characters on what a client shows. The person reads a choice other
// than the one the answer sends. Either the form's text is escaped or the
// question is refused (questions.Parse) before it is shown.
func TestFormSchemaTextEscaped(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, schema string
	}{
		{"enum value", `{"type":"string","enum":["keep \u202Estnemucod","delete everything"]}`},
		{"titled const", `{"type":"string","oneOf":[{"const":"rm","title":"Keep \u202Eselif"},{"const":"keep","title":"Delete"}]}`},
		{"titled item", `{"type":"array","items":{"anyOf":[{"const":"a","title":"docs\u200B\u2067only"},{"const":"b","title":"src"}]}}`},
		{"default", `{"type":"string","default":"build\u202E/.."}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args, _ := json.Marshal(map[string]any{"questions": []any{map[string]any{"name": "pick", "question": "Which?", "schema": json.RawMessage(tc.schema)}}})
			set, err := questions.Parse(args)
			if err != nil {
				return // refused before it reached a person
			}
			s, ok := formSchema(set)
			if !ok {
				t.Fatalf("formSchema refused %s: want it shown as a form", tc.schema)
			}
			b, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			var doc any
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			for _, str := range formStrings(doc) {
				if questions.Escape(str) != str {
					t.Errorf("elicitation form shows %q raw (escaped it reads %q)", str, questions.Escape(str))
				}
			}
		})
	}
}

// formStrings are every string of a decoded JSON value, object keys too.
func formStrings(v any) []string {
	var out []string
	switch x := v.(type) {
	case string:
		out = append(out, x)
	case []any:
		for _, e := range x {
			out = append(out, formStrings(e)...)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, k)
			out = append(out, formStrings(x[k])...)
		}
	}
	return out
}
