package openai

import (
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/internal/jsonw"
)

// messageJSON is m as sent (chatMessage), written directly: byte for byte
// what encoding/json makes of go-openai's ChatCompletionMessage (its
// MarshalJSON's field order, empty fields left out, strings HTML-escaped).
// Through encoding/json every new message was encoded, then scanned again
// by the outer Marshal's compaction of a Marshaler's output, and the
// first request of a process built the encoders of four types.
func messageJSON(m llm.Message) []byte {
	c := chatMessage(m)
	size := len(c.Role) + len(c.Content) + len(c.ToolCallID) + 64
	for _, tc := range c.ToolCalls {
		size += len(tc.ID) + len(tc.Function.Name) + len(tc.Function.Arguments) + 64
	}
	b := make([]byte, 0, size+size/8)
	b = append(b, `{"role":`...)
	b = jsonw.AppendString(b, c.Role)
	if c.Content != "" {
		b = append(b, `,"content":`...)
		b = jsonw.AppendString(b, c.Content)
	}
	if len(c.ToolCalls) > 0 {
		b = append(b, `,"tool_calls":[`...)
		for i, tc := range c.ToolCalls {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '{')
			if tc.ID != "" {
				b = append(b, `"id":`...)
				b = jsonw.AppendString(b, tc.ID)
				b = append(b, ',')
			}
			b = append(b, `"type":`...)
			b = jsonw.AppendString(b, string(tc.Type))
			b = append(b, `,"function":{`...)
			sep := ""
			if tc.Function.Name != "" {
				b = append(b, `"name":`...)
				b = jsonw.AppendString(b, tc.Function.Name)
				sep = ","
			}
			if tc.Function.Arguments != "" {
				b = append(b, sep...)
				b = append(b, `"arguments":`...)
				b = jsonw.AppendString(b, tc.Function.Arguments)
			}
			b = append(b, `}}`...)
		}
		b = append(b, ']')
	}
	if c.ToolCallID != "" {
		b = append(b, `,"tool_call_id":`...)
		b = jsonw.AppendString(b, c.ToolCallID)
	}
	return append(b, '}')
}
