package agent

import (
	"context"
	"fmt"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/questions"
)

// ReportProgress implements tools.ProgressReporter: the running call's
// progress shown as the turn's progress ("BUILD: <tool>: <message>", the
// LSP face's work-done progress) and as an UpdateToolCallProgress of the
// call (tool_call_update, status in_progress: on ACP, and on the LSP face
// only to an editor that declared experimental.agent.toolCallProgress).
func (e *env) ReportProgress(ctx context.Context, tool, message string) {
	message = questions.EscapeLine(message)
	progressOf(ctx).Report(ctx, fmt.Sprintf("%s: %s: %s", upper(e.s.State().Mode), tool, message))
	id := ToolCallID(ctx)
	if id == "" {
		return
	}
	e.s.m.notes.Update(ctx, e.s.meta.ID, UpdateToolCallProgress{SessionUpdate: "tool_call_update", ToolCallID: id, Status: "in_progress",
		Content: []agentproto.ToolContent{{Type: "content", Content: agentproto.TextContent{Type: "text", Text: message}}}})
}

// UpdateToolCallProgress is a running call's progress (`tool_call_update`
// with status in_progress and the progress as its content), e.g. an MCP
// server's progress notifications.
type UpdateToolCallProgress struct {
	SessionUpdate string                   `json:"sessionUpdate"`
	ToolCallID    string                   `json:"toolCallId"`
	Status        string                   `json:"status"`
	Content       []agentproto.ToolContent `json:"content"`
}

func (UpdateToolCallProgress) IsSessionUpdate() {}
