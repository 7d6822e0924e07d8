package protoconv

import (
	"encoding/json"
	"testing"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/sandbox"
)

// TestSameJSON: each conversion writes the JSON the agent's own value
// writes, full and empty, so moving a face onto the wire types changed no
// byte on the wire. (The agent's values that are agentproto's types need
// no row; TestEmptyListsAreLists checks what the helpers add to them.)
func TestSameJSON(t *testing.T) {
	msgs := []llm.Message{
		{ID: "m1", Role: "assistant", Content: "hi", ToolCalls: []agentproto.ToolCall{{ID: "c1", Name: "read", Arguments: `{"path":"a"}`, Title: "read a", Kind: "read"}}, Thinking: "hmm", ProviderState: json.RawMessage(`{"r":1}`)},
		{Role: "tool", Content: "{}", ToolCallID: "c1", Name: "read"},
	}
	// The sandbox's status is the one value the agent converts itself
	// (agent.CheckModel, AgentStatus): the same JSON either way.
	sandboxStatus := sandbox.Status{Mode: "landlock", Landlock: "ABI 4", Bwrap: "ok", Network: true, Summary: "s"}
	cases := []struct {
		name        string
		agent, wire any
	}{
		{"messages", msgs, Messages(msgs)},
		{"sandbox status", sandboxStatus, AgentStatus(agent.Status{Sandbox: sandboxStatus}).Sandbox},
		{"empty sandbox status", sandbox.Status{}, AgentStatus(agent.Status{}).Sandbox},
		{"models", agentproto.ModelList{Models: []agentproto.ModelInfo{{ID: "m", Provider: "openai"}}, Current: agentproto.CurrentModels{Plan: "p", Build: "b"}}, ModelList(agentproto.ModelList{Models: []agentproto.ModelInfo{{ID: "m", Provider: "openai"}}, Current: agentproto.CurrentModels{Plan: "p", Build: "b"}})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want, err := json.Marshal(tc.agent)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(tc.wire)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("wire JSON\n%s\nwant (the agent's)\n%s", got, want)
			}
		})
	}
}

// TestMessageOutcome: a tool message's persisted outcome is flat on the
// wire (status, refusal, questions, answers), as agent/loadSession shows it.
func TestMessageOutcome(t *testing.T) {
	msgs := []llm.Message{{Role: "tool", Content: "{}", ToolCallID: "c1", Name: "ask_user", Outcome: &llm.ToolOutcome{
		Status:    "failed",
		Refusal:   json.RawMessage(`{"tool_name":"edit","tool_kind":"edit","hint":"h","entered_at":"e","entered_reason":"r"}`),
		Questions: json.RawMessage(`[{"name":"env","question":"Which?","schema":{"type":"string"}}]`),
		Answers:   json.RawMessage(`{"env":"dev"}`),
	}}}
	got, err := json.Marshal(Messages(msgs))
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"role":"tool","content":"{}","tool_call_id":"c1","name":"ask_user","status":"failed",` +
		`"refusal":{"tool_name":"edit","tool_kind":"edit","hint":"h","entered_at":"e","entered_reason":"r"},` +
		`"questions":[{"name":"env","question":"Which?","schema":{"type":"string"}}],"answers":{"env":"dev"}}]`
	if string(got) != want {
		t.Errorf("wire JSON\n%s\nwant\n%s", got, want)
	}
}

// TestEmptyListsAreLists: a nil list the agent gives is `[]` on the wire,
// never null (editors iterate over these members unchecked).
func TestEmptyListsAreLists(t *testing.T) {
	for name, v := range map[string]any{
		"sessions": Sessions(nil), "plans": Plans(nil), "commands": Commands(nil),
		"changed files": ChangedFiles(nil).Files, "models": ModelList(agentproto.ModelList{}).Models,
	} {
		if got, err := json.Marshal(v); err != nil || string(got) != "[]" {
			t.Errorf("%s of nil = %s (%v), want []", name, got, err)
		}
	}
}
