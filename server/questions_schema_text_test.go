package server_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/questions"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestAskUserSchemaTextEscaped: the text of an ask_user question's schema
// that the editors show a person — the enum values VS Code lists as radios,
// a select or checkboxes and Neovim lists in vim.ui.select, a property's
// title (VS Code's field label), its description (VS Code's hint), a
// property's name (Neovim's "› name" prompt, VS Code's label without a
// title), a default (VS Code's prefilled field) — reaches agent/askUser with
// a right-to-left override or a zero-width character raw: the person reads
// the choice reversed or joined ("keep ‮stnemucod" reads "keep documents"),
// while PROTOCOL.md promises that every text that reaches a person goes
// through the one escape (`\u202E`). Either the text reaches the editor
// escaped, or the question is refused before it is shown.
func TestAskUserSchemaTextEscaped(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, schema string
	}{
		{"enum value", `{type: string, enum: ["keep \u202Estnemucod", "delete everything"]}`},
		{"items enum value", `{type: array, items: {type: string, enum: ["docs", "src\u202E/cod"]}}`},
		{"property title", `{type: object, properties: {target: {type: string, title: "Target folder \u202Eretlif"}}}`},
		{"property description", `{type: object, properties: {target: {type: string, description: "safe\u200B\u2066 folder"}}}`},
		{"property name", `{type: object, properties: {"path\u202Ecod": {type: string}}}`},
		{"default", `{type: object, properties: {target: {type: string, default: "build\u202E/.."}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := lsptest.Start(t, lsptest.Setup{
				Handlers: lspclient.Handlers{AskUser: func(json.RawMessage) any { return map[string]any{"dismissed": true} }},
				Script: "name: schema_text\nsteps:\n  - tool_calls:\n      - {id: q, name: ask_user, args: {questions: [{name: pick, question: \"Which?\", schema: " +
					tc.schema + "}]}}\n  - text: done\n",
			})
			s := h.NewSession("plan")
			wantStop(t, h.Prompt(s.SessionID, "ask"), "end_turn")
			asks := h.AskUserRequests("question")
			if len(asks) == 0 {
				if status, _ := h.ToolOutput("q"); status != "failed" {
					t.Fatalf("no agent/askUser and ask_user %s: want the question shown escaped or refused", status)
				}
				return // refused before it reached a person
			}
			for _, a := range asks {
				for _, q := range a.Questions {
					var doc any
					if err := json.Unmarshal(q.Schema, &doc); err != nil {
						t.Fatalf("schema %s: %v", q.Schema, err)
					}
					for _, s := range schemaStrings(doc) {
						if questions.Escape(s) != s {
							t.Errorf("agent/askUser schema shows %q to the person raw (escaped it reads %q)", s, questions.Escape(s))
						}
					}
				}
			}
		})
	}
}

// schemaStrings are every string of a decoded JSON value, object keys too.
func schemaStrings(v any) []string {
	var out []string
	switch x := v.(type) {
	case string:
		out = append(out, x)
	case []any:
		for _, e := range x {
			out = append(out, schemaStrings(e)...)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, k)
			out = append(out, schemaStrings(x[k])...)
		}
	case nil, bool, float64, json.Number:
	default:
		out = append(out, fmt.Sprint(x))
	}
	return out
}
