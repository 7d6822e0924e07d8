package agent

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/questions"
	"github.com/agentls/agentls/workspace"
	"github.com/google/uuid"
)

// KeepPlanningReason is the rejection reason when the user chose "Keep
// Planning" without feedback (in the dialog, or on the plan's lens).
const KeepPlanningReason = "the user chose to keep planning"

// planShowBound bounds the opening of a plan beside its approval question
// (the faces bound the request to the editor as well).
const planShowBound = 10 * time.Second

// showApproval opens the plan and shows the approval dialog; the user's
// decision is offered to ap. The plan is opened beside the question, not
// before it: an editor slow to open a document (the face bounds it) never
// delays the question. The question ends with askCtx (withdrawn once
// anything decided); the plan's opening neither with the decision nor with
// the turn, only after planShowBound or when the manager closes: a decision
// that came before the editor was asked to open it (a client that answers
// at once, a turn that ends right after) does not take it back, so the plan
// is always on screen with its question. It returns once both are done.
func (s *Session) showApproval(turnCtx, askCtx context.Context, ap *pendingApproval, p workspace.Path, allowed []string) {
	defer s.m.showBeside(context.WithoutCancel(turnCtx), p.Abs, "plan")()
	if d, ok := s.askApproval(askCtx, p.Rel, allowed); ok {
		ap.offer(d)
	}
}

// showBeside opens the file abs (what it is: "plan") in the editor while
// a question about it is asked, bounded by planShowBound, ctx and the
// manager's Close; wait returns once the opening is done (the goroutine is
// owned: defer wait).
func (m *Manager) showBeside(ctx context.Context, abs, what string) (wait func()) {
	showCtx, cancel := context.WithTimeout(ctx, planShowBound)
	stop := context.AfterFunc(m.base, cancel)
	shown := make(chan struct{})
	go func() {
		defer close(shown)
		if err := m.shower.ShowDocument(showCtx, abs); err != nil && showCtx.Err() == nil {
			slog.Warn("show "+what, "path", abs, "err", err)
		}
	}()
	return func() {
		<-shown
		stop()
		cancel()
	}
}

// askApproval puts the approval question to the user. ok is false when the
// editor cannot ask (agent/resolvePlan decides then) or the ask was withdrawn.
func (s *Session) askApproval(ctx context.Context, rel string, allowed []string) (decision, bool) {
	m := s.m
	perm := approvalPermission(s.meta.ID, rel, allowed)
	perm.Note = m.resolvedNote(rel) // plan_comments.go: "2 review comments were resolved."
	text := perm.Text()             // the plan, every command approving grants, the note
	set, err := questions.New([]questions.Question{
		{
			Name: "approve", Question: text, Schema: []byte(`{"type":"boolean"}`),
			Buttons: []questions.Button{
				{Label: "Accept & Build", Value: true, Variant: "primary"},
				{Label: "Keep Planning", Value: false, Variant: "secondary"},
			},
		},
		{
			Name: "feedback", Question: "What should change in the plan? (optional)",
			Schema: []byte(`{"type":"string","maxLength":4000}`), Optional: true,
		},
	})
	if err != nil {
		slog.Error("approval question", "err", err)
		return decision{}, false
	}
	id, err := uuid.NewV7()
	if err != nil {
		return decision{}, false
	}
	tctx, took := permission.Timed(ctx) // the face marks the send (permission.Sent)
	reply, err := m.asker.Ask(tctx, AskRequest{
		SessionID: s.meta.ID, QuestionID: id.String(), Set: set, Purpose: "plan_approval", PlanFile: rel, CreatedAt: m.now(),
		Permission: &perm,
		// The safe action first: eglot takes the first one on a bare Enter.
		Actions: []questions.Action{{Title: "Keep Planning", Value: false}, {Title: "Accept & Build", Value: true}},
	})
	if err == nil {
		noteAsked(ctx, set, reply) // tool_outcome.go
	}
	switch {
	case errors.Is(err, ErrNoSurface):
		return decision{}, false
	case err != nil && ctx.Err() == nil && errors.Is(err, ErrAskFailed):
		return decision{failed: err}, true // the face has no other way to ask
	case err != nil:
		if ctx.Err() == nil {
			slog.Warn("approval question failed; waiting for agent/resolvePlan", "err", err)
		}
		return decision{}, false
	case reply.Dismissed:
		// Escape is not a decision: the approval stays pending for the
		// lenses, the commands or the next prompt (PROTOCOL.md §5).
		slog.Info("approval dialog dismissed; the approval stays pending", "session", s.meta.ID, "plan", rel)
		return decision{}, false
	}
	approve, _ := reply.Answers["approve"].(bool)
	feedback, _ := reply.Answers["feedback"].(string)
	if approve {
		if d := permission.Mark(perm, permission.Approval(true), took()); d.Fast > 0 {
			// Approved faster than a person reads a plan: the client by
			// itself, not the user. Only a person approves a plan: it
			// stays awaiting approval (the lens, the command, /approve),
			// and the user is told how; the model is not told.
			s.tellFastApproval(ctx, d)
			return decision{}, false
		}
		return decision{approve: true, source: "tool"}, true
	}
	if strings.TrimSpace(feedback) == "" {
		feedback = KeepPlanningReason
	}
	return decision{reason: strings.TrimSpace(feedback), source: "tool"}, true
}

// approvalPermission is what approving the plan rel grants, as the one
// permission shape: the plan question carries it (kind plan), so every
// face shows the allowed_commands beside the plan.
func approvalPermission(sessionID, rel string, allowed []string) permission.Request {
	return permission.Request{
		SessionID: sessionID, Requester: "exit_plan_mode", Kind: agentproto.PermissionPlan, What: rel,
		Reach: agentproto.ReachEditor, Grants: allowed,
		Options: []agentproto.PermissionOption{
			permission.Opt(agentproto.RejectOnce, "Keep Planning"),
			permission.Opt(agentproto.AllowOnce, "Accept & Build"),
		},
	}
}

// tellFastApproval tells the user that the client approved the plan by
// itself, faster than a person reads it, and that it still awaits their
// approval: as agentls's own message in the session (every face shows
// it), in the editor's log (the LSP face's window/logMessage), and in
// exit_plan_mode's result once it ends.
func (s *Session) tellFastApproval(ctx context.Context, d permission.Decision) {
	text := s.m.fastApprovalText(d)
	s.m.noteFast(ctx, text)
	s.m.notes.Update(ctx, s.meta.ID, agentproto.MessageChunk{SessionUpdate: "agent_message_chunk",
		Content: agentproto.TextContent{Type: "text", Text: "\n\nagentls: " + text + "\n\n"}})
}
