package elicit

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/questions"
)

// FuzzFormElicitation: whatever schema a server sends, building its
// questions never panics, and what is built keeps ask_user's limits: each
// batch at most questions.MaxQuestions questions, each field's schema
// within questions.CheckSchemaLimits, every question name a valid one that
// maps back to a field of the schema.
func FuzzFormElicitation(f *testing.F) {
	f.Add(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)
	f.Add(`{"type":"object","properties":{"a-b":{"type":"integer","default":3},"a_b":{"type":"boolean"}}}`)
	f.Add(`{"type":"object","properties":{"x":{"not":{"not":{}}}}}`)
	f.Add(`{"type":"object","properties":[]}`)
	f.Fuzz(func(t *testing.T, schema string) {
		sets, names, err := formElicitation(tools.MCPElicitation{Server: "s", Message: "m", Mode: "form", Schema: json.RawMessage(schema)})
		if err != nil {
			return
		}
		if questions.CheckSchemaLimits("elicitation", []byte(schema)) != nil {
			t.Fatalf("a schema over the limits was asked: %s", schema)
		}
		for _, set := range sets {
			if len(set.Questions) > questions.MaxQuestions {
				t.Fatalf("a batch of %d questions", len(set.Questions))
			}
			for _, q := range set.Questions {
				if _, ok := names[q.Name]; !ok {
					t.Fatalf("question %q maps to no field", q.Name)
				}
				if strings.ContainsAny(q.Name, "-. ") {
					t.Fatalf("question name %q", q.Name)
				}
			}
		}
	})
}
