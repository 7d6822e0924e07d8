package agent

import (
	"encoding/json"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/jsonw"
)

// chatMessageJSON is m as the session file stores it: byte for byte what
// json.Marshal makes of an llm.Message (its fields in order, empty ones
// left out, strings HTML-escaped, raw JSON compacted), written directly.
// Through encoding/json a process's first message built the encoders of
// the message, its tool calls and its outcome (about 0.1 ms of the first
// turn, issue 24). A raw field that is not valid JSON goes to json.Marshal,
// for its error.
func chatMessageJSON(m llm.Message) ([]byte, error) {
	raws := [4]json.RawMessage{m.ProviderState}
	if m.Outcome != nil {
		raws[1], raws[2], raws[3] = m.Outcome.Refusal, m.Outcome.Questions, m.Outcome.Answers
	}
	size := len(m.ID) + len(m.Role) + len(m.Content) + len(m.ToolCallID) + len(m.Name) + len(m.Thinking) + len(m.Error) + 96
	for _, raw := range raws {
		if len(raw) > 0 && !json.Valid(raw) {
			return json.Marshal(m)
		}
		size += len(raw)
	}
	for _, tc := range m.ToolCalls {
		size += len(tc.ID) + len(tc.Name) + len(tc.Arguments) + len(tc.Title) + len(tc.Kind) + 64
	}
	b := make([]byte, 0, size+size/8)
	b = append(b, '{')
	if m.ID != "" {
		b = jsonw.AppendMember(b, `"id":`, m.ID)
		b = append(b, ',')
	}
	b = jsonw.AppendMember(b, `"role":`, string(m.Role))
	b = jsonw.AppendField(b, `,"content":`, m.Content)
	b = jsonw.AppendArrayField(b, `,"tool_calls":`, m.ToolCalls, func(b []byte, tc agentproto.ToolCall) []byte {
		b = jsonw.AppendMember(b, `{"id":`, tc.ID)
		b = jsonw.AppendMember(b, `,"name":`, tc.Name)
		b = jsonw.AppendMember(b, `,"arguments":`, tc.Arguments)
		b = jsonw.AppendField(b, `,"title":`, tc.Title)
		b = jsonw.AppendField(b, `,"kind":`, tc.Kind)
		return append(b, '}')
	})
	b = jsonw.AppendField(b, `,"tool_call_id":`, m.ToolCallID)
	b = jsonw.AppendField(b, `,"name":`, m.Name)
	b = jsonw.AppendField(b, `,"thinking":`, m.Thinking)
	b = jsonw.AppendRawField(b, `,"provider_state":`, m.ProviderState)
	if o := m.Outcome; o != nil {
		b = jsonw.AppendMember(b, `,"outcome":{"status":`, o.Status)
		b = jsonw.AppendRawField(b, `,"refusal":`, o.Refusal)
		b = jsonw.AppendRawField(b, `,"questions":`, o.Questions)
		b = jsonw.AppendRawField(b, `,"answers":`, o.Answers)
		if o.Dismissed {
			b = append(b, `,"dismissed":true`...)
		}
		b = append(b, '}')
	}
	b = jsonw.AppendField(b, `,"error":`, m.Error)
	if m.Rewound {
		b = append(b, `,"rewound":true`...)
	}
	return append(b, '}'), nil
}
