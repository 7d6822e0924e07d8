package acp

import (
	"context"
	"encoding/json"

	"github.com/agentls/agentls/agent/llm"
)

// replay sends a loaded session's history as session/update notifications:
// user messages, agent messages, and each tool call with its outcome.
func (e *editor) replay(ctx context.Context, sessionID string, msgs []llm.Message) {
	for _, m := range msgs {
		switch m.Role {
		case llm.RoleUser:
			if m.Content != "" {
				e.send(ctx, sessionID, chunk("user_message_chunk", m.Content))
			}
		case llm.RoleAssistant:
			if m.Content != "" {
				e.send(ctx, sessionID, chunk("agent_message_chunk", m.Content))
			}
			for _, c := range m.ToolCalls {
				title, kind := e.h.mgr.ToolCallView(c.Name, c.Arguments)
				start := toolCallStart{SessionUpdate: "tool_call", ToolCallID: c.ID, Title: title, Kind: kind, Status: "pending"}
				if json.Valid([]byte(c.Arguments)) {
					start.RawInput = json.RawMessage(c.Arguments)
				}
				e.send(ctx, sessionID, start)
			}
		case llm.RoleTool:
			status := "completed"
			var r struct {
				Success bool `json:"success"`
			}
			if json.Unmarshal([]byte(m.Content), &r) != nil || !r.Success {
				status = "failed"
			}
			up := toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: m.ToolCallID, Status: status,
				Content: []toolContent{textContent(failureSentence(m.Content))}}
			if json.Valid([]byte(m.Content)) {
				up.RawOutput = json.RawMessage(m.Content)
			}
			e.send(ctx, sessionID, up)
		}
	}
}
