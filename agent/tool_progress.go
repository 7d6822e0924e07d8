package agent

import (
	"context"

	"github.com/agentls/agentls/questions"
)

// ReportProgress implements tools.ProgressReporter: the running call's
// progress as a tool_call_update (status in_progress).
func (e *env) ReportProgress(ctx context.Context, message string) {
	id := ToolCallID(ctx)
	if id == "" {
		return
	}
	e.s.m.notes.Update(ctx, e.s.meta.ID, UpdateToolCallProgress{SessionUpdate: "tool_call_update", ToolCallID: id, Status: "in_progress",
		Content: []ToolContent{{Type: "content", Content: TextContent{Type: "text", Text: questions.EscapeLine(message)}}}})
}

// UpdateToolCallProgress is a running call's progress (`tool_call_update`
// with status in_progress and the progress as its content), e.g. an MCP
// server's progress notifications.
type UpdateToolCallProgress struct {
	SessionUpdate string        `json:"sessionUpdate"`
	ToolCallID    string        `json:"toolCallId"`
	Status        string        `json:"status"`
	Content       []ToolContent `json:"content"`
}

func (UpdateToolCallProgress) isUpdate() {}
