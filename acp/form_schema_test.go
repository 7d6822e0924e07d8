package acp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentls/agentls/questions"
)

// TestFormSchemaKeepsTheLimits: one elicitation form holds every question
// of a batch; a form over the schema limits (eight questions, each within
// them), or one whose $refs would not resolve under its properties, is not
// sent as a form (another surface asks).
func TestFormSchemaKeepsTheLimits(t *testing.T) {
	t.Parallel()
	bigEnum := func() []byte {
		vals := make([]string, 50)
		for i := range vals {
			vals[i] = fmt.Sprintf("%q", fmt.Sprintf("choice-number-%06d-%s", i, strings.Repeat("x", 40)))
		}
		return []byte(`{"type":"string","enum":[` + strings.Join(vals, ",") + `]}`)
	}
	many := make([]questions.Question, 8)
	for i := range many {
		many[i] = questions.Question{Name: fmt.Sprintf("q%d", i), Question: "Which?", Schema: bigEnum()}
	}
	for _, tc := range []struct {
		name string
		qs   []questions.Question
		want bool
	}{
		{"two small questions", []questions.Question{
			{Name: "env", Question: "Which environment?", Schema: []byte(`{"type":"string","enum":["dev","prod"]}`)},
			{Name: "ok", Question: "Go on?", Schema: []byte(`{"type":"boolean"}`)},
		}, true},
		{"eight questions over the limits together", many, false},
		{"a $ref to the question's $defs", []questions.Question{
			{Name: "n", Question: "How many?", Schema: []byte(`{"$defs":{"n":{"type":"integer"}},"type":"integer","allOf":[{"$ref":"#/$defs/n"}]}`)},
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, q := range tc.qs {
				if err := questions.CheckSchemaLimits(q.Name, q.Schema); err != nil {
					t.Fatalf("question %s is over the limits alone: %v", q.Name, err)
				}
			}
			set, err := questions.New(tc.qs)
			if err != nil {
				t.Fatal(err)
			}
			s, ok := formSchema(set)
			if ok != tc.want {
				b, _ := json.Marshal(s)
				t.Fatalf("formSchema ok = %v, want %v (%d bytes)", ok, tc.want, len(b))
			}
		})
	}
}
