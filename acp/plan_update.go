package acp

import (
	"context"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/questions"
)

// This file sends plan_update (ACP's plan operations, stabilised November
// 2026; not in the Go SDK v0.13.0): a client that declares
// `clientCapabilities.plan` gets the attached .plan document whole as a
// Markdown plan naming its file; other clients get the legacy `plan`
// checklist. The shape follows agent-client-protocol-schema's PlanUpdate /
// PlanMarkdown: {sessionUpdate: "plan_update", plan: {type: "markdown",
// planId, content, path}}.

// planUpdate is plan_update.
type planUpdate struct {
	SessionUpdate string       `json:"sessionUpdate"` // "plan_update"
	Plan          planMarkdown `json:"plan"`
	Meta          planMeta     `json:"_meta,omitempty"`
}

// planMeta is a plan update's _meta: after a refused tick, why
// (docs/language-intel.md, "Step ticks"; the failed tool call's content
// lists the same problems as text).
type planMeta map[string]*agentproto.TickRefusal

// tickMeta is the _meta of a plan update carrying r (nil for none).
func tickMeta(r *agentproto.TickRefusal) planMeta {
	if r == nil {
		return nil
	}
	return planMeta{"agentls/tickRefused": r}
}

// planMarkdown is a plan as Markdown with the absolute path of its file.
type planMarkdown struct {
	Type    string `json:"type"` // "markdown"
	PlanID  string `json:"planId"`
	Content string `json:"content"`
	Path    string `json:"path,omitempty"`
}

// clientTakesPlanUpdates tells whether the client declared
// clientCapabilities.plan (the SDK drops the field: the wire keeps it).
func (e *editor) clientTakesPlanUpdates() bool { return e.a.wire.init.clientAdvertises("plan") }

// sendPlan sends the attached plan: plan_update with the whole document
// when the client takes it (and the file can be read), else the checklist.
func (e *editor) sendPlan(ctx context.Context, sessionID string, u agentproto.PlanUpdate) {
	if e.clientTakesPlanUpdates() && u.PlanFile != "" {
		if p, err := e.h.ws.Resolve(u.PlanFile); err == nil {
			if text, err := e.h.ws.ReadFile(p); err == nil {
				e.send(ctx, sessionID, planUpdate{SessionUpdate: "plan_update",
					Plan: planMarkdown{Type: "markdown", PlanID: u.PlanFile, Content: text, Path: p.Abs}, Meta: tickMeta(u.TickRefused)})
				return
			}
		}
	}
	// Each entry is one line a person reads beside the approval: control and
	// bidi characters are shown escaped (\u202E), as in every question
	// (agent-shell showed "Greet \u202Eolleh" as "Greet hello").
	entries := make([]planEntry, 0, len(u.Entries))
	for _, en := range u.Entries {
		entries = append(entries, planEntry{Content: questions.EscapeLine(en.Content), Priority: en.Priority, Status: string(en.Status)})
	}
	e.send(ctx, sessionID, planUpdate0{SessionUpdate: "plan", Entries: entries, Meta: tickMeta(u.TickRefused)})
}
