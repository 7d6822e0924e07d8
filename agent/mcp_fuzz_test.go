package agent

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

// FuzzPromptArgs: a prompt command's argument text never panics the
// parser, and every argument it returns is one the prompt declares.
func FuzzPromptArgs(f *testing.F) {
	f.Add(`city=Lyon state="New York"`)
	f.Add(`"unclosed`)
	f.Add(`just some text`)
	f.Add(`city='a b' city=c`)
	p := MCPPrompt{Server: "s", Name: "p", Args: []MCPPromptArg{{Name: "city", Required: true}, {Name: "state"}}}
	one := MCPPrompt{Server: "s", Name: "q", Args: []MCPPromptArg{{Name: "text"}}}
	f.Fuzz(func(t *testing.T, text string) {
		for _, pr := range []MCPPrompt{p, one} {
			args, err := promptArgs(pr, text)
			if err != nil {
				continue
			}
			for k := range args {
				known := false
				for _, a := range pr.Args {
					known = known || a.Name == k
				}
				if !known {
					t.Fatalf("argument %q is not one of the prompt's", k)
				}
			}
			for _, a := range pr.Args {
				if _, ok := args[a.Name]; a.Required && !ok {
					t.Fatalf("required %q missing without an error", a.Name)
				}
			}
		}
	})
}

// TestPromptArgs: how a prompt command's text becomes its arguments.
func TestPromptArgs(t *testing.T) {
	two := MCPPrompt{Args: []MCPPromptArg{{Name: "city", Required: true}, {Name: "state"}}}
	one := MCPPrompt{Args: []MCPPromptArg{{Name: "text", Required: true}}}
	none := MCPPrompt{}
	tests := []struct {
		name    string
		p       MCPPrompt
		text    string
		want    map[string]string
		wantErr string
	}{
		{"named", two, `city=Lyon`, map[string]string{"city": "Lyon"}, ""},
		{"quoted value", two, `city="New York" state='NY'`, map[string]string{"city": "New York", "state": "NY"}, ""},
		{"missing required", two, `state=NY`, nil, "missing required argument(s) city"},
		{"unknown name", two, `town=Lyon`, nil, "give the arguments as name=value"},
		{"unclosed quote", two, `city="Lyon`, nil, "not closed"},
		{"one argument takes the text", one, `summarise this, please`, map[string]string{"text": "summarise this, please"}, ""},
		{"one argument named", one, `text=hi`, map[string]string{"text": "hi"}, ""},
		{"none given, one required", one, ``, nil, "missing required argument(s) text"},
		{"no arguments", none, ``, map[string]string{}, ""},
		{"no arguments, text given", none, `extra`, nil, "give the arguments as name=value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := promptArgs(tc.p, tc.text)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || len(got) != len(tc.want) {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

// TestMCPMention: what in a prompt names an MCP resource.
func TestMCPMention(t *testing.T) {
	tests := []struct {
		text string
		want []string // server:uri
	}{
		{"read @every:demo://x/1 now", []string{"every:demo://x/1"}},
		{"@fs:file:///a and @gh:issue/3", []string{"fs:file:///a", "gh:issue/3"}},
		{"mail me at me@every:x", nil},
		{"no mention @ here", nil},
		{"@:nothing", nil},
	}
	for _, tc := range tests {
		var got []string
		for _, m := range mcpMention.FindAllStringSubmatch(tc.text, -1) {
			got = append(got, m[1]+":"+m[2])
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%q: %v, want %v", tc.text, got, tc.want)
		}
	}
}
