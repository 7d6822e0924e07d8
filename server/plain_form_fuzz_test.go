package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentls/agentls/questions"
)

// FuzzFormValue: a prompt read as the answer to one form question never
// panics, a string question gets the text itself, and a choice's title
// (any case) gets the choice's value.
func FuzzFormValue(f *testing.F) {
	f.Add(`{"type":"string"}`, "billing")
	f.Add(`{"type":"integer","minimum":1}`, "3")
	f.Add(`{"type":"boolean"}`, "YES")
	f.Add(`{"type":"array","items":{"type":"string"}}`, `["a"]`)
	f.Add(`{"type":["string","null"]}`, "null")
	f.Fuzz(func(t *testing.T, schema, text string) {
		q := questions.Question{Name: "x", Question: "?", Schema: json.RawMessage(schema)}
		v := formValue(q, text)
		var s struct {
			Type any `json:"type"`
		}
		if json.Unmarshal([]byte(schema), &s) == nil && s.Type == "string" {
			if _, choice := questions.MessageActions(q); !choice && v != text {
				t.Fatalf("string question answered %q got %#v", text, v)
			}
		}
		if actions, ok := questions.MessageActions(q); ok {
			for _, a := range actions {
				if strings.EqualFold(a.Title, text) {
					if b1, b2 := mustJSON(a.Value), mustJSON(v); b1 != b2 && !strings.EqualFold(strings.Trim(b2, `"`), text) {
						t.Fatalf("choice %q answered %s, want %s", text, b2, b1)
					}
					return
				}
			}
		}
	})
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
