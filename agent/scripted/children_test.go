package scripted

import (
	"context"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/llm"
)

// TestChildrenSections: a request naming a sub-agent takes the next step of
// its section, whatever the order the sections are asked in; the main
// steps go on independently; an unknown or used-up section is an error
// naming it; a broken section fails the parse.
func TestChildrenSections(t *testing.T) {
	s, err := Parse([]byte(`
steps:
  - text: main 1
  - text: main 2
children:
  explore-1: [{text: a1}, {text: a2}]
  explore-2: [{text: b1}]
`))
	if err != nil {
		t.Fatal(err)
	}
	p := New(s)
	ctx := context.Background()
	for _, c := range []struct{ agent, want string }{
		{"explore-2", "b1"}, {"", "main 1"}, {"explore-1", "a1"}, {"explore-1", "a2"}, {"", "main 2"},
	} {
		res, err := p.Complete(ctx, llm.Request{Agent: c.agent}, nil)
		if err != nil || res.Message.Content != c.want {
			t.Fatalf("agent %q: %q, %v; want %q", c.agent, res.Message.Content, err, c.want)
		}
	}
	for agent, want := range map[string]string{"explore-1": `children explore-1 has no step left`, "build-1": `no children section "build-1"`} {
		if _, err := p.Complete(ctx, llm.Request{Agent: agent}, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("agent %q: %v, want %q", agent, err, want)
		}
	}
	for doc, want := range map[string]string{
		"steps: [{text: x}]\nchildren: {explore-1: []}\n":                   `children section "explore-1" has no steps`,
		"steps: [{text: x}]\nchildren: {explore-1: [{tool_calls: [{}]}]}\n": "children explore-1: step 1: tool call 1 has no name",
	} {
		if _, err := Parse([]byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %q", doc, err, want)
		}
	}
}
