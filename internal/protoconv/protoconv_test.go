package protoconv

import (
	"encoding/json"
	"testing"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/sandbox"
)

// TestSameJSON: each conversion writes the JSON the agent's own value
// writes, full and empty, so moving a face onto the wire types changed no
// byte on the wire.
func TestSameJSON(t *testing.T) {
	plan := "plans/a.plan"
	info := agent.Info{SessionID: "019a", Title: "t", Mode: "build", PlanFile: &plan, CreatedAt: "c", UpdatedAt: "u", ParentID: "p", ParentToolCallID: "tc", Kind: "explore"}
	msgs := []llm.Message{
		{ID: "m1", Role: "assistant", Content: "hi", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read", Arguments: `{"path":"a"}`, Title: "read a", Kind: "read"}}, ProviderState: json.RawMessage(`{"r":1}`)},
		{Role: "tool", Content: "{}", ToolCallID: "c1", Name: "read"},
	}
	// The sandbox's status is the one value the agent converts itself
	// (agent.CheckModel, AgentStatus): the same JSON either way.
	sandboxStatus := sandbox.Status{Mode: "landlock", Landlock: "ABI 4", Bwrap: "ok", Network: true, Summary: "s"}
	cases := []struct {
		name        string
		agent, wire any
	}{
		{"session", info, Session(info)},
		{"empty session", agent.Info{}, Session(agent.Info{})},
		{"sessions", []agent.Info{info}, Sessions([]agent.Info{info})},
		{"messages", msgs, Messages(msgs)},
		{"plans", []agent.PlanInfo{{Path: "p", Title: "t", Status: "draft", CreatedAt: "c", StepsDone: 1, StepsTotal: 2, Error: "e"}}, Plans([]agent.PlanInfo{{Path: "p", Title: "t", Status: "draft", CreatedAt: "c", StepsDone: 1, StepsTotal: 2, Error: "e"}})},
		{"sandbox status", sandboxStatus, AgentStatus(agent.Status{Sandbox: sandboxStatus}).Sandbox},
		{"empty sandbox status", sandbox.Status{}, AgentStatus(agent.Status{}).Sandbox},
		{"compact", agent.CompactResult{Compacted: true, ContextTokens: 3}, CompactResult(agent.CompactResult{Compacted: true, ContextTokens: 3})},
		{"models", agent.ModelList{Models: []agent.ModelInfo{{ID: "m", Provider: "openai"}}, Current: agent.CurrentModels{Plan: "p", Build: "b"}}, ModelList(agent.ModelList{Models: []agent.ModelInfo{{ID: "m", Provider: "openai"}}, Current: agent.CurrentModels{Plan: "p", Build: "b"}})},
		{"commands", []agent.CommandInfo{{Name: "plan", Description: "d", Hint: "h"}}, Commands([]agent.CommandInfo{{Name: "plan", Description: "d", Hint: "h"}})},
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
