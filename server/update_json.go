package server

import (
	"encoding/json"
	"strconv"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/jsonw"
)

// updateParams is agent/update's params for the updates every turn sends
// (message chunks, tool calls starting and ending, usage, the title),
// written directly: byte for byte what encoding/json makes of
// {"sessionId": id, "update": u} (the map's keys sorted, each struct's
// fields in order, empty ones left out, strings HTML-escaped, raw JSON
// compacted). Through encoding/json a process's first turn built an
// encoder for each of these types (about 0.2 ms of it together, issue 24)
// and every update sorted a map. ok is false for the other updates and
// for the rarer shapes (a refusal, a sub-agent's usage) and raw JSON that
// is not valid: those go through encoding/json.
func updateParams(sessionID string, u agent.Update) (json.RawMessage, bool) {
	b := make([]byte, 0, 256)
	b = jsonw.AppendMember(b, `{"sessionId":`, sessionID)
	b = append(b, `,"update":{"sessionUpdate":`...)
	switch u := u.(type) {
	case agentproto.MessageChunk:
		b = jsonw.AppendString(b, u.SessionUpdate)
		b = jsonw.AppendMember(b, `,"content":{"type":`, u.Content.Type)
		b = jsonw.AppendMember(b, `,"text":`, u.Content.Text)
		b = append(b, '}')
		b = jsonw.AppendField(b, `,"messageId":`, u.MessageID)
	case agentproto.ToolCallStarted:
		if len(u.RawInput) > 0 && !json.Valid(u.RawInput) {
			return nil, false
		}
		b = jsonw.AppendString(b, u.SessionUpdate)
		b = jsonw.AppendMember(b, `,"toolCallId":`, u.ToolCallID)
		b = jsonw.AppendMember(b, `,"title":`, u.Title)
		b = jsonw.AppendMember(b, `,"kind":`, u.Kind)
		b = jsonw.AppendMember(b, `,"status":`, u.Status)
		b = jsonw.AppendRawField(b, `,"rawInput":`, u.RawInput)
		b = jsonw.AppendField(b, `,"parentToolCallId":`, u.ParentToolCallID)
		b = jsonw.AppendField(b, `,"childSessionId":`, u.ChildSessionID)
	case agent.UpdateToolCallDone:
		if u.Refusal != nil || (len(u.RawOutput) > 0 && !json.Valid(u.RawOutput)) {
			return nil, false
		}
		b = jsonw.AppendString(b, u.SessionUpdate)
		b = jsonw.AppendMember(b, `,"toolCallId":`, u.ToolCallID)
		b = jsonw.AppendMember(b, `,"status":`, u.Status)
		b = jsonw.AppendArrayField(b, `,"content":`, u.Content, func(b []byte, c agentproto.ToolContent) []byte {
			b = jsonw.AppendMember(b, `{"type":`, c.Type)
			b = jsonw.AppendMember(b, `,"content":{"type":`, c.Content.Type)
			b = jsonw.AppendMember(b, `,"text":`, c.Content.Text)
			return append(b, `}}`...)
		})
		b = jsonw.AppendRawField(b, `,"rawOutput":`, u.RawOutput)
		b = jsonw.AppendField(b, `,"parentToolCallId":`, u.ParentToolCallID)
		b = jsonw.AppendField(b, `,"childSessionId":`, u.ChildSessionID)
	case agentproto.UsageUpdate:
		if len(u.Children) > 0 || u.Total != nil {
			return nil, false
		}
		b = jsonw.AppendString(b, u.SessionUpdate)
		b = append(b, `,"inputTokens":`...)
		b = strconv.AppendInt(b, int64(u.InputTokens), 10)
		b = append(b, `,"outputTokens":`...)
		b = strconv.AppendInt(b, int64(u.OutputTokens), 10)
		if u.ContextTokens != 0 {
			b = append(b, `,"contextTokens":`...)
			b = strconv.AppendInt(b, int64(u.ContextTokens), 10)
		}
		if u.ContextWindow != 0 {
			b = append(b, `,"contextWindow":`...)
			b = strconv.AppendInt(b, int64(u.ContextWindow), 10)
		}
	case agentproto.SessionInfoUpdate:
		b = jsonw.AppendString(b, u.SessionUpdate)
		b = jsonw.AppendMember(b, `,"title":`, u.Title)
		b = jsonw.AppendMember(b, `,"updatedAt":`, u.UpdatedAt)
	default:
		return nil, false
	}
	return append(b, `}}`...), true
}
