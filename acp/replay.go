package acp

import (
	"context"
	"encoding/json"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/agent/llm"
)

// replay sends a loaded session's history as session/update notifications:
// user messages, agent messages, and each tool call with its outcome.
func (e *editor) replay(ctx context.Context, sessionID string, msgs []llm.Message) {
	for _, m := range msgs {
		switch m.Role {
		case llm.RoleUser:
			if m.Content != "" {
				e.send(ctx, sessionID, sdk.UpdateUserMessageText(m.Content))
			}
		case llm.RoleAssistant:
			if m.Content != "" {
				e.send(ctx, sessionID, sdk.UpdateAgentMessageText(m.Content))
			}
			for _, c := range m.ToolCalls {
				title, kind := e.h.mgr.ToolCallView(c.Name, c.Arguments)
				opts := []sdk.ToolCallStartOpt{sdk.WithStartKind(sdk.ToolKind(kind)), sdk.WithStartStatus(sdk.ToolCallStatusPending)}
				if json.Valid([]byte(c.Arguments)) {
					opts = append(opts, sdk.WithStartRawInput(json.RawMessage(c.Arguments)))
				}
				e.send(ctx, sessionID, sdk.StartToolCall(sdk.ToolCallId(c.ID), title, opts...))
			}
		case llm.RoleTool:
			status := sdk.ToolCallStatusCompleted
			var r struct {
				Success bool `json:"success"`
			}
			if json.Unmarshal([]byte(m.Content), &r) != nil || !r.Success {
				status = sdk.ToolCallStatusFailed
			}
			opts := []sdk.ToolCallUpdateOpt{sdk.WithUpdateStatus(status),
				sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(failureSentence(m.Content)))})}
			if json.Valid([]byte(m.Content)) {
				opts = append(opts, sdk.WithUpdateRawOutput(json.RawMessage(m.Content)))
			}
			e.send(ctx, sessionID, sdk.UpdateToolCall(sdk.ToolCallId(m.ToolCallID), opts...))
		}
	}
}
