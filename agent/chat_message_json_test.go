package agent

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// TestChatMessageJSON: chatMessageJSON writes what json.Marshal writes for
// every field, empty or not, strings that need escaping, raw JSON that
// needs compacting, and fails where it fails (a raw field that is not
// JSON).
func TestChatMessageJSON(t *testing.T) {
	t.Parallel()
	tricky := "a <b> & \"c\"\n\t\u2028\u2029 \x00 \xff ünïcode ✓ \\"
	cases := []struct {
		name string
		m    llm.Message
	}{
		{"empty", llm.Message{}},
		{"user", llm.Message{ID: "01a2195d-1642-7bfb-8264-9e3b9a297326", Role: llm.RoleUser, Content: "task 1"}},
		{"assistant with calls", llm.Message{ID: "m2", Role: llm.RoleAssistant, Content: "Looking.", ToolCalls: []agentproto.ToolCall{
			{ID: "call_1", Name: "read", Arguments: `{"path":"f0.go","limit":40}`, Title: "read f0.go", Kind: "read"},
			{ID: "", Name: "", Arguments: ""},
			{ID: "call_3", Name: "grep", Arguments: `{"pattern":"a<b"}`, Kind: "search"},
		}}},
		{"tool result", llm.Message{ID: "m3", Role: llm.RoleTool, Content: `{"success":true,"result":"x"}`, ToolCallID: "call_1", Name: "read"}},
		{"outcome", llm.Message{Role: llm.RoleTool, ToolCallID: "c", Outcome: &llm.ToolOutcome{
			Status:    "failed",
			Refusal:   json.RawMessage(`{ "reason" : "plan mode", "text": "<no> & \u2028" }`),
			Questions: json.RawMessage(`[{"id":"q1"}]`),
			Answers:   json.RawMessage(` {"q1": ["yes"]} `),
			Dismissed: true,
		}}},
		{"outcome, status only", llm.Message{Role: llm.RoleTool, Outcome: &llm.ToolOutcome{Status: "completed"}}},
		{"provider state", llm.Message{Role: llm.RoleAssistant, ProviderState: json.RawMessage("{\n  \"items\": [1, 2]\n}")}},
		{"thinking", llm.Message{Role: llm.RoleAssistant, Content: "Done.", Thinking: "Let me <think> & \"check\"", ProviderState: json.RawMessage(`{"model":"m"}`)}},
		{"error and rewound", llm.Message{Role: llm.RoleUser, Content: "x", Error: "the model's endpoint refused", Rewound: true}},
		{"escaping everywhere", llm.Message{ID: tricky, Role: llm.Role(tricky), Content: tricky, ToolCallID: tricky, Name: tricky, Thinking: tricky, Error: tricky,
			ToolCalls: []agentproto.ToolCall{{ID: tricky, Name: tricky, Arguments: tricky, Title: tricky, Kind: tricky}}}},
		{"empty raw fields", llm.Message{Role: llm.RoleTool, ProviderState: json.RawMessage{}, Outcome: &llm.ToolOutcome{Refusal: json.RawMessage{}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := chatMessageJSON(tc.m)
			if err != nil {
				t.Fatalf("chatMessageJSON: %v", err)
			}
			sameAsMarshal(t, "chatMessageJSON", tc.m, got, err)
		})
	}
	for _, bad := range []llm.Message{
		{Role: llm.RoleAssistant, ProviderState: json.RawMessage(`{"unclosed":`)},
		{Role: llm.RoleTool, Outcome: &llm.ToolOutcome{Status: "failed", Answers: json.RawMessage(`not json`)}},
	} {
		if _, err := chatMessageJSON(bad); err == nil {
			t.Errorf("invalid raw JSON in %+v encoded without an error", bad)
		}
	}
}

// TestChatMessageJSONKnowsEveryField fails when llm.Message, its tool calls
// or its outcome gain a field: chatMessageJSON must write it too.
func TestChatMessageJSONKnowsEveryField(t *testing.T) {
	t.Parallel()
	writesEveryField(t, "chatMessageJSON", map[reflect.Type]int{
		reflect.TypeFor[llm.Message](): 11, reflect.TypeFor[agentproto.ToolCall](): 5, reflect.TypeFor[llm.ToolOutcome](): 5,
	})
}

// FuzzChatMessageJSON: for any text in any field and any raw JSON,
// chatMessageJSON and json.Marshal agree (bytes, or both fail).
func FuzzChatMessageJSON(f *testing.F) {
	f.Add("u1", "user", "task <1> & more", `{"path":"a.go"}`, "read a.go", `{ "a" : [1, "<>"] }`, true)
	f.Add("", "", "", "", "", "", false)
	f.Add("\xff", "tool", "\u2028", "not json", "", `{"x":`, true)
	f.Fuzz(func(t *testing.T, id, role, text, args, title, raw string, outcome bool) {
		m := llm.Message{ID: id, Role: llm.Role(role), Content: text, ToolCallID: title, Name: args, Thinking: text, Error: title,
			ToolCalls: []agentproto.ToolCall{{ID: id, Name: role, Arguments: args, Title: title, Kind: text}}}
		if raw != "" {
			m.ProviderState = json.RawMessage(raw)
		}
		if outcome {
			m.Outcome = &llm.ToolOutcome{Status: text, Refusal: json.RawMessage(raw), Answers: json.RawMessage(args), Dismissed: len(id)%2 == 0}
			m.Rewound = true
		}
		got, err := chatMessageJSON(m)
		sameAsMarshal(t, "chatMessageJSON", m, got, err)
	})
}

// BenchmarkChatMessageJSON: an assistant message with a tool call, as a
// turn appends it, written directly and by encoding/json.
func BenchmarkChatMessageJSON(b *testing.B) {
	m := llm.Message{ID: "01a2195d-1642-7bfb-8264-9e3b9a297326", Role: llm.RoleAssistant, Content: "Looking at the code.",
		ToolCalls: []agentproto.ToolCall{{ID: "call_1_read", Name: "read", Arguments: `{"path":"f1.go","limit":40}`, Title: "read f1.go", Kind: "read"}}}
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			if _, err := chatMessageJSON(m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(m); err != nil {
				b.Fatal(err)
			}
		}
	})
}
