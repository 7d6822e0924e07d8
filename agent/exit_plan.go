package agent

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"unicode/utf8"

	"github.com/agentls/agentls/agent/runrules"
	"github.com/agentls/agentls/agent/textline"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/allowrule"
	"github.com/agentls/agentls/workspace"
	"github.com/google/uuid"
)

// rejectionFollowUp is the canonical follow-up after a rejected plan.
func rejectionFollowUp(reason string) string {
	return fmt.Sprintf("Plan rejected by the user. Reason: %s. Do not call exit_plan_mode again with the same plan. "+
		"Adjust the plan based on the rejection reason and present a revised plan.", reason)
}

// ExitPlanMode presents a plan for approval (PROTOCOL.md §5).
func (e *env) ExitPlanMode(ctx context.Context, path string, allowed []string) (tools.Result, error) {
	s, m := e.s, e.s.m
	if s.State().Mode != agentproto.ModePlan {
		return tools.Failf("the session is not in plan mode; exit_plan_mode presents a plan for approval from plan mode"), nil
	}
	if res, refused := m.exitPlanRefused(ctx); refused {
		return res, nil
	}
	p, err := m.ws.Resolve(path)
	if err != nil {
		return tools.Failf("plan_file_path: %v", err), nil
	}
	if !p.Exists || p.IsDir || !m.Guard().IsPlanTarget(p) {
		return tools.Failf("%s is not an existing .plan file in the workspace; write the plan with plan_write first", path), nil
	}
	text, err := m.ws.ReadFile(p)
	if err != nil {
		return tools.Failf("read plan %s: %v", p.Rel, err), nil
	}
	key := m.ws.Key(p) // the plan_file stored: a plan of another folder than the root is named absolutely
	s.mu.Lock()
	_, fresh := s.planPhase[key]
	s.mu.Unlock()
	if !fresh {
		return tools.Failf("the plan %s was not written or edited in this planning phase (or since the user rejected it), so it may be stale; "+
			"update it with plan_write or plan_edit, then call exit_plan_mode again", key), nil
	}
	comments := workspace.PlanComments(text)
	if open := workspace.OpenComments(comments); len(open) > 0 {
		return tools.Failf("%s", workspace.CommentsReason(open)+"\nThen call exit_plan_mode again."), nil
	}
	if msg := s.droppedComments(key, comments); msg != "" { // plan_comments.go
		return tools.Failf("%s", msg), nil
	}
	id, err := uuid.NewV7()
	if err != nil {
		return tools.Result{}, fmt.Errorf("plan id: %w", err)
	}
	requireApproval := m.config().PlanMode.RequireApproval
	res := tools.ExitResult{
		PlanFile: key, PlanID: id.String(), PlanBytes: len(text), PlanChars: utf8.RuneCountInString(text),
		ApprovalRequired: requireApproval,
	}
	if s.attachPlan(key) {
		// Another plan than the one the editor shows (the session's first):
		// its plan update goes out before the approval question, so the
		// plan on screen is the plan approved.
		s.sendPlanUpdate(ctx)
	}
	d := decision{approve: true, source: "tool"}
	note := ""
	allowed, others := runrules.Grantable(allowed)
	if len(others) > 0 {
		// Only allow rules can be granted: a list, a pipeline or a
		// redirection is asked each time it runs.
		note = " These allowed_commands were not offered to the user, since only one simple command (optionally ending in \" *\") " +
			"can be allowed up front: `" + strings.Join(others, "`, `") + "`; run asks before each of them."
	}
	if requireApproval {
		ap := s.startApproval(key)
		applied := false
		defer func() { s.finishApproval(ap, applied) }()
		var err error
		if d, err = s.awaitApproval(ctx, ap, p, allowed); err != nil {
			if ctx.Err() != nil {
				return tools.Failf("cancelled by the user: the plan approval was withdrawn; %s was not approved and the session stays in plan mode", key), nil
			}
			return tools.Failf("%v", err), err
		}
		if d.failed != nil {
			// Nobody can decide: the turn ends saying why, the plan unapproved.
			err := fmt.Errorf("%w; %s was not approved and the session stays in plan mode (switch to build mode to approve it, or prompt again)", d.failed, key)
			return tools.Failf("%v", err), err
		}
		applied = true // both outcomes below take effect
		if d.caller != nil {
			ctx = WithCaller(ctx, d.caller) // the request that decided waits for what follows
		}
		if open := workspace.OpenComments(m.planComments(key)); d.approve && len(open) > 0 {
			// A comment written while the question was open holds the
			// approval: the planner gets the comments (plan_comments.go).
			m.notify(ctx, "[plan-mode] "+openCommentsText(key, open))
			d = decision{reason: workspace.CommentsReason(open), source: d.source}
		}
	} else if len(allowed) > 0 {
		// Nobody was asked, so nobody allowed the commands: run asks for each.
		note += " allowed_commands were not granted, since the user was not asked: run asks before each of them."
		allowed = nil
	}
	if !d.approve {
		// The same plan must not be presented again: it is stale until revised.
		s.mu.Lock()
		delete(s.planPhase, key)
		s.mu.Unlock()
		m.notify(ctx, fmt.Sprintf("[plan-mode] rejected plan=%s reason=%s", textline.Path(key), textline.OneLine(d.reason)))
		return tools.Failf("%s", rejectionFollowUp(d.reason)), nil
	}
	s.approve(ctx, key, text, allowed, d.source)
	s.commentsApproved(key)
	res.ExitedPlanMode, res.Approved = true, true
	res.Message = "The user approved the plan."
	if !requireApproval {
		res.Message = "The plan is approved (this workspace needs no approval from the user)."
	}
	res.Message += " You are now in BUILD mode: carry out the plan step by step, ticking each checkbox in the plan with plan_edit as you finish it." + note
	return tools.OK(res), nil
}

// approve carries out an approval: plan status approved, allowed commands
// remembered, mode → build (source: "tool" for the dialog, "user" for
// agent/resolvePlan and agent/setMode).
func (s *Session) approve(ctx context.Context, rel, presented string, allowed []string, source string) {
	m := s.m
	if err := m.setPlanStatus(ctx, s, rel, agentproto.PlanApproved); err != nil {
		m.planStatusFailed(ctx, rel, agentproto.PlanApproved, err)
	}
	// The approved text is the one presented for approval: what the user
	// changed while deciding shows to the builder as changed since approval.
	s.setBaseline(rel, approvedText(presented))
	rules, errs := allowrule.ParseRules(allowed)
	if errs != nil {
		slog.Warn("allowed_commands: not granted", "errs", errs) // ExitPlanMode offered only rules
	}
	s.mu.Lock()
	s.allowed = append(s.allowed, rules...)
	s.mu.Unlock()
	m.notify(ctx, fmt.Sprintf("[plan-mode] approved plan=%s", textline.Path(rel)))
	s.setMode(ctx, agentproto.ModeBuild, source, "")
	text, _ := m.readPlanText(rel)
	if plan, err := workspace.ParsePlan(text); err == nil {
		text = plan.Body
	}
	m.notify(ctx, fmt.Sprintf("[plan-mode] exited — plan: %s…", textline.FirstRunes(text, 200)))
}
