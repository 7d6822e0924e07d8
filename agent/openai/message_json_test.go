package openai

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// messageJSONCases take every field and every escape of messageJSON.
var messageJSONCases = []llm.Message{
	{Role: llm.RoleUser, Content: "task 1"},
	{Role: llm.RoleSystem, Content: "You are <agentls> & \u2028 \"quoted\"\n\ttabs \\ \x01 \xff invalid"},
	{Role: llm.RoleAssistant},
	{Role: llm.RoleAssistant, Content: "Looking.", ToolCalls: []agentproto.ToolCall{
		{ID: "call_1", Name: "read", Arguments: `{"path":"f0.go","limit":40}`},
		{ID: "", Name: "grep", Arguments: `{"pattern":"a<b"}`},
		{ID: "call_3", Name: "", Arguments: ""},
		{ID: "call_4", Name: "ls", Arguments: ""},
	}},
	{Role: llm.RoleTool, Content: `{"content":"package f0\n"}`, ToolCallID: "call_1", Name: "read"},
	{Role: llm.RoleTool, ToolCallID: "call_2"},
	{Role: llm.RoleUser, Content: "not sent: a tool call id on a user message", ToolCallID: "x"},
}

// TestMessageJSONIsWhatEncodingJSONWrites: each message is byte for byte
// what encoding/json makes of go-openai's message.
func TestMessageJSONIsWhatEncodingJSONWrites(t *testing.T) {
	for i, m := range messageJSONCases {
		want, err := json.Marshal(chatMessage(m))
		if err != nil {
			t.Fatal(err)
		}
		if got := messageJSON(m, echo{}); !bytes.Equal(got, want) {
			t.Errorf("case %d:\ngot  %s\nwant %s", i, got, want)
		}
	}
}

// FuzzMessageJSON: for any role, content, ids, names and arguments,
// messageJSON writes what encoding/json does.
func FuzzMessageJSON(f *testing.F) {
	for _, m := range messageJSONCases {
		var id, name, args string
		if len(m.ToolCalls) > 0 {
			id, name, args = m.ToolCalls[0].ID, m.ToolCalls[0].Name, m.ToolCalls[0].Arguments
		}
		f.Add(string(m.Role), m.Content, m.ToolCallID, id, name, args)
	}
	f.Fuzz(func(t *testing.T, role, content, toolCallID, id, name, args string) {
		for _, r := range []llm.Role{llm.Role(role), llm.RoleAssistant, llm.RoleTool} {
			m := llm.Message{Role: r, Content: content, ToolCallID: toolCallID}
			if r == llm.RoleAssistant {
				m.ToolCalls = []agentproto.ToolCall{{ID: id, Name: name, Arguments: args}, {ID: name, Name: args}}
			}
			want, err := json.Marshal(chatMessage(m))
			if err != nil {
				t.Fatal(err)
			}
			if got := messageJSON(m, echo{}); !bytes.Equal(got, want) {
				t.Fatalf("\ngot  %s\nwant %s", got, want)
			}
		}
	})
}
