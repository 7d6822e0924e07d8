package openai

import (
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/internal/jsonw"
	goopenai "github.com/sashabaranov/go-openai"
)

// messageJSON is m as sent (chatMessage), written directly: byte for byte
// what encoding/json makes of go-openai's ChatCompletionMessage (its
// MarshalJSON's field order, empty fields left out, strings HTML-escaped).
// Through encoding/json every new message was encoded, then scanned again
// by the outer Marshal's compaction of a Marshaler's output, and the
// first request of a process built the encoders of four types.
//
// r, when its field is set, is the reasoning sent back with m (in go-openai's
// place for reasoning_content: after the content).
func messageJSON(m llm.Message, r echo) []byte {
	c := chatMessage(m)
	size := len(c.Role) + len(c.Content) + len(c.ToolCallID) + len(r.text) + 64
	for _, tc := range c.ToolCalls {
		size += len(tc.ID) + len(tc.Function.Name) + len(tc.Function.Arguments) + 64
	}
	b := make([]byte, 0, size+size/8)
	b = jsonw.AppendMember(b, `{"role":`, c.Role)
	b = jsonw.AppendField(b, `,"content":`, c.Content)
	if r.field != "" {
		b = jsonw.AppendMember(b, `,"`+r.field+`":`, r.text) // "" too: a placeholder (reasoningEcho)
	}
	b = jsonw.AppendArrayField(b, `,"tool_calls":`, c.ToolCalls, appendToolCall)
	b = jsonw.AppendField(b, `,"tool_call_id":`, c.ToolCallID)
	return append(b, '}')
}

// appendToolCall writes one tool call as the chat completions API takes it
// (omitting an empty id, name or arguments, as go-openai's tags do).
func appendToolCall(b []byte, tc goopenai.ToolCall) []byte {
	b = append(b, '{')
	if tc.ID != "" {
		b = jsonw.AppendMember(b, `"id":`, tc.ID)
		b = append(b, ',')
	}
	b = jsonw.AppendMember(b, `"type":`, string(tc.Type))
	b = append(b, `,"function":{`...)
	sep := ""
	if tc.Function.Name != "" {
		b = jsonw.AppendMember(b, `"name":`, tc.Function.Name)
		sep = ","
	}
	if tc.Function.Arguments != "" {
		b = append(b, sep...)
		b = jsonw.AppendMember(b, `"arguments":`, tc.Function.Arguments)
	}
	return append(b, `}}`...)
}
