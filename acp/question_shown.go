package acp

import (
	"context"
	"strings"

	"github.com/agentls/agentls/permission"
)

// Clients show a permission request differently: Zed and agent-shell show
// the tool call's content, but CodeCompanion.nvim shows only the tool
// call's kind and title in its approval prompt, and avante.nvim the title
// and the content's first lines above its buttons. So a permission request
// also goes out as the agent's own text right before
// session/request_permission: every client shows the plan and the commands
// approving grants, or the whole run question (command, folder, network,
// sandbox), or every key a trust grants, at the moment it asks — except to
// the clients known to show the request's content in full (showsContent),
// where the text would be a second copy (and agent-shell, which renders
// the request in its input area, loses its prompt to an agent message
// arriving just before one).

// contentShowingClients are the clientInfo names of the clients that show a
// permission request's tool-call content in full.
var contentShowingClients = map[string]bool{"agent-shell": true, "zed": true, "Zed": true}

// showsContent reports whether the client shows a permission request's
// content itself.
func (a *Agent) showsContent() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return contentShowingClients[a.client]
}

// showApproval sends the plan approval (the plan's text and what approving
// grants, both already escaped) as one agent message of its own.
func (e *editor) showApproval(ctx context.Context, sessionID, planFile, planText, grants string) {
	if e.a.showsContent() {
		return
	}
	e.showText(ctx, sessionID, approvalMessage(planFile, planText, grants))
}

// showPermission sends the permission service's question (text, escaped
// by permission.Request.Text) and its answers with what each durable one
// grants (Request.Choices: these clients label the options by kind, their
// own way, "Always accept") as one agent message of its own.
func (e *editor) showPermission(ctx context.Context, req permission.Request, text string) {
	if e.a.showsContent() {
		return
	}
	if choices := req.Choices(); choices != "" {
		text = strings.TrimRight(text, "\n") + "\n\n" + choices
	}
	e.showText(ctx, req.SessionID, "\n\n"+strings.TrimRight(text, "\n")+"\n\n")
}

// showText sends text as one agent message of agentls's own.
func (e *editor) showText(ctx context.Context, sessionID, text string) {
	e.a.msgIDs.end(sessionID) // a message of its own, not the model's
	c := chunk("agent_message_chunk", text)
	c.MessageID = e.a.msgIDs.of(sessionID, "agent_message_chunk")
	e.send(ctx, sessionID, c)
	e.a.msgIDs.end(sessionID)
}

// approvalMessage is the plan approval as Markdown: the plan file, its text
// in a fence it cannot close, and the commands approving grants.
func approvalMessage(planFile, planText, grants string) string {
	var b strings.Builder
	b.WriteString("\n\nThe plan `" + planFile + "` asks for your approval (Accept & Build starts building it):\n\n")
	b.WriteString(fencedPlan(planText))
	if grants != "" {
		b.WriteString("\n" + grants + "\n")
	}
	b.WriteString("\n")
	return b.String()
}

// fencedPlan is a plan's text in a fence it cannot close, ending in a line
// break: clients render text as Markdown, and a plan line the builder reads
// may render as nothing there (a link reference definition `[//]: # "…"`).
// Every client gets the plan so, in the chat and in the approval's content.
func fencedPlan(planText string) string {
	fence := permission.Fence(planText, 4) // at least four: the plan may hold ``` fences
	return fence + "markdown\n" + strings.TrimRight(planText, "\n") + "\n" + fence + "\n"
}
