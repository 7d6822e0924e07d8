package elicit

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/tools"
)

// TestFormElicitation: a form elicitation's schema becomes one question per
// field, in order, the message on the first, required fields not optional,
// names made question names (and mapped back); a schema over ask_user's
// limits, not an object, or without fields is refused.
func TestFormElicitation(t *testing.T) {
	everything, err := os.ReadFile("testdata/everything_elicitation_schema.json")
	if err != nil {
		t.Fatal(err)
	}
	deep := `{"type":"object","properties":{"a":` + strings.Repeat(`{"not":`, 40) + `{}` + strings.Repeat(`}`, 40) + `}}`
	tests := []struct {
		name    string
		schema  string
		wantErr string
		check   func(t *testing.T, names map[string]string, qs []string)
	}{
		{"server-everything's form", string(everything), "", func(t *testing.T, names map[string]string, qs []string) {
			if len(qs) != 13 || names["name"] != "name" || !strings.Contains(qs[0], "MCP server `s` asks: hello") || !strings.Contains(qs[0], "(Part 1 of 2.)") ||
				!strings.Contains(qs[8], "(Part 2 of 2.)") || !strings.Contains(qs[2], `(default: "It was a dark and stormy night.")`) {
				t.Errorf("questions %q, names %v", qs, names)
			}
		}},
		{"odd field names", `{"type":"object","properties":{"first-name":{"type":"string"},"first_name":{"type":"string"},"9lives":{"type":"integer"}},"required":["first-name"]}`, "", func(t *testing.T, names map[string]string, qs []string) {
			if names["first_name"] != "first-name" || names["first_name_2"] != "first_name" || names["f_9lives"] != "9lives" {
				t.Errorf("names %v", names)
			}
		}},
		{"not an object", `{"type":"string"}`, "not a JSON object schema", nil},
		{"no fields", `{"type":"object","properties":{}}`, "no fields", nil},
		{"too deep", deep, "the limit is", nil},
		{"too big", `{"type":"object","properties":{"a":{"type":"string","description":"` + strings.Repeat("x", 20000) + `"}}}`, "the limit is 16384", nil},
		{"bad field schema", `{"type":"object","properties":{"a":{"type":"nonsense"}}}`, "a", nil},
		{"too many fields", `{"type":"object","properties":{` + manyFields(33) + `}}`, "at most 32", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sets, names, err := formElicitation(tools.MCPElicitation{Server: "s", Message: "hello", Mode: "form", Schema: json.RawMessage(tc.schema)})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var qs []string
			for _, set := range sets {
				if len(set.Questions) > 8 {
					t.Errorf("a batch of %d questions", len(set.Questions))
				}
				for _, q := range set.Questions {
					qs = append(qs, q.Question)
				}
			}
			tc.check(t, names, qs)
		})
	}
}

func manyFields(n int) string {
	var parts []string
	for i := 0; i < n; i++ {
		parts = append(parts, `"f`+strings.Repeat("x", i)+`":{"type":"string"}`)
	}
	return strings.Join(parts, ",")
}

// TestURLElicitation: a URL elicitation is one question showing the URL
// (never opened, its backquotes escaped); "accept" is the only answer that
// accepts; a form's reply keeps only the answered fields, by their names.
func TestURLElicitation(t *testing.T) {
	t.Parallel()
	req := tools.MCPElicitation{Server: "s", Message: "log in", Mode: "url", URL: "https://example.com/`x`"}
	sets, names, err := Questions(req)
	if err != nil || len(sets) != 1 || names != nil || len(sets[0].Questions) != 1 {
		t.Fatalf("Questions = %v, %v, %v", sets, names, err)
	}
	if q := sets[0].Questions[0].Question; !strings.Contains(q, "https://example.com/%60x%60") || !strings.Contains(q, "does not open it") {
		t.Errorf("question %q", q)
	}
	if _, _, err := Questions(tools.MCPElicitation{Server: "s", Mode: "url"}); err == nil {
		t.Error("a URL elicitation without a URL was asked")
	}
	for answer, want := range map[any]string{"accept": "accept", "decline": "decline", nil: "decline"} {
		if got := Reply(req, map[string]any{urlQuestion: answer}, nil); got.Action != want || got.Content != nil {
			t.Errorf("Reply(%v) = %+v, want %s", answer, got, want)
		}
	}
	form := tools.MCPElicitation{Server: "s", Mode: "form"}
	got := Reply(form, map[string]any{"first_name": "Ada", "age": nil, "stray": 1}, map[string]string{"first_name": "first-name", "age": "age"})
	if got.Action != "accept" || len(got.Content) != 1 || got.Content["first-name"] != "Ada" {
		t.Errorf("form reply %+v", got)
	}
}
