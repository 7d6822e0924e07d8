package acp

import (
	"context"
	"strings"
)

// Clients show a permission request differently: Zed and agent-shell show
// the tool call's content, but CodeCompanion.nvim shows only the tool
// call's kind and title in its approval prompt, and avante.nvim only the
// title above its buttons. So the plan approval also goes out as the
// agent's own text right before session/request_permission: every client
// shows the plan and the commands approving grants at the moment it asks.

// showApproval sends the plan approval (the plan's text and what approving
// grants, both already escaped) as one agent message of its own.
func (e *editor) showApproval(ctx context.Context, sessionID, planFile, planText, grants string) {
	e.a.msgIDs.end(sessionID) // a message of its own, not the model's
	c := chunk("agent_message_chunk", approvalMessage(planFile, planText, grants))
	c.MessageID = e.a.msgIDs.of(sessionID, "agent_message_chunk")
	e.send(ctx, sessionID, c)
	e.a.msgIDs.end(sessionID)
}

// approvalMessage is the plan approval as Markdown: the plan file, its text
// in a fence it cannot close, and the commands approving grants.
func approvalMessage(planFile, planText, grants string) string {
	var b strings.Builder
	b.WriteString("\n\nThe plan `" + planFile + "` asks for your approval (Accept & Build starts building it):\n\n")
	fence := markdownFence(planText)
	b.WriteString(fence + "markdown\n" + strings.TrimRight(planText, "\n") + "\n" + fence + "\n")
	if grants != "" {
		b.WriteString("\n" + grants + "\n")
	}
	b.WriteString("\n")
	return b.String()
}

// markdownFence is a backtick fence longer than any run of backticks in
// text (at least four), so the text cannot close it.
func markdownFence(text string) string {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(4, longest+1))
}
