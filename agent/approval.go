package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/internal/allowrule"
	"github.com/agentls/agentls/questions"
	"github.com/agentls/agentls/workspace"
)

// KeepPlanningReason is the rejection reason when the user chose "Keep
// Planning" without feedback (in the dialog, or on the plan's lens).
const KeepPlanningReason = "the user chose to keep planning"

// pendingApproval is a plan waiting for the user's decision. Whoever decides
// first (the dialog, agent/resolvePlan) wins, and only while the tool still
// waits: once it stopped waiting (timeout, cancellation) every offer fails.
// done closes once the outcome is settled; applied then says whether the
// accepted decision was carried out.
type pendingApproval struct {
	plan   string
	decide chan decision // buffered: the one accepted decision
	done   chan struct{}

	mu      sync.Mutex
	closed  bool // a decision was accepted or the tool stopped waiting
	applied bool // the accepted decision was carried out (read after done)
}

// decision is the user's verdict on a plan. source is the agent/modeChanged
// source of an approval: "tool" for the dialog, "user" for agent/resolvePlan
// and agent/setMode.
type decision struct {
	approve bool
	reason  string
	source  string
}

// offer hands d to the waiting tool. It reports false when a decision was
// already accepted or the tool no longer waits.
func (a *pendingApproval) offer(d decision) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return false
	}
	a.closed = true
	a.decide <- d // never blocks: only the first offer gets here
	return true
}

// stop ends the offers. It returns a decision accepted just before, if any.
func (a *pendingApproval) stop() (decision, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
	select {
	case d := <-a.decide:
		return d, true
	default:
		return decision{}, false
	}
}

// settle records whether the accepted decision was carried out and releases
// a waiting agent/resolvePlan.
func (a *pendingApproval) settle(applied bool) {
	a.mu.Lock()
	a.applied = applied
	a.mu.Unlock()
	close(a.done)
}

// resolve offers d and waits until the outcome is settled. offered is false
// when a decision was already taken or the tool no longer waits; applied
// says whether d was carried out.
func (a *pendingApproval) resolve(ctx context.Context, d decision) (offered, applied bool, err error) {
	if !a.offer(d) {
		return false, false, nil
	}
	select {
	case <-a.done:
	case <-ctx.Done():
		return true, false, ctx.Err()
	}
	return true, a.wasApplied(), nil
}

func (a *pendingApproval) wasApplied() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.applied
}

// rejectionFollowUp is the canonical follow-up after a rejected plan.
func rejectionFollowUp(reason string) string {
	return fmt.Sprintf("Plan rejected by the user. Reason: %s. Do not call exit_plan_mode again with the same plan. "+
		"Adjust the plan based on the rejection reason and present a revised plan.", reason)
}

// ExitPlanMode presents a plan for approval (PROTOCOL.md §5).
func (e *env) ExitPlanMode(ctx context.Context, path string, allowed []string) (tools.Result, error) {
	s, m := e.s, e.s.m
	if s.State().Mode != guard.ModePlan {
		return tools.Failf("the session is not in plan mode; exit_plan_mode presents a plan for approval from plan mode"), nil
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
	s.mu.Lock()
	_, fresh := s.planPhase[p.Rel]
	s.mu.Unlock()
	if !fresh {
		return tools.Failf("the plan %s was not written or edited in this planning phase (or since the user rejected it), so it may be stale; "+
			"update it with plan_write or plan_edit, then call exit_plan_mode again", p.Rel), nil
	}
	id, err := uuid.NewV7()
	if err != nil {
		return tools.Result{}, fmt.Errorf("plan id: %w", err)
	}
	requireApproval := m.config().PlanMode.RequireApproval
	res := tools.ExitResult{
		PlanFile: p.Rel, PlanID: id.String(), PlanBytes: len(text), PlanChars: utf8.RuneCountInString(text),
		ApprovalRequired: requireApproval,
	}
	s.attachPlan(p.Rel)
	d := decision{approve: true, source: "tool"}
	note := ""
	allowed, others := grantableCommands(allowed)
	if len(others) > 0 {
		// Only allow rules can be granted: a list, a pipeline or a
		// redirection is asked each time it runs.
		note = " These allowed_commands were not offered to the user, since only one simple command (optionally ending in \" *\") " +
			"can be allowed up front: `" + strings.Join(others, "`, `") + "`; run asks before each of them."
	}
	if requireApproval {
		ap := s.startApproval(p.Rel)
		applied := false
		defer func() { s.finishApproval(ap, applied) }()
		var err error
		if d, err = s.awaitApproval(ctx, ap, p, allowed); err != nil {
			if ctx.Err() != nil {
				return tools.Failf("cancelled by the user: the plan approval was withdrawn; %s was not approved and the session stays in plan mode", p.Rel), nil
			}
			return tools.Failf("%v", err), err
		}
		applied = true // both outcomes below take effect
	} else if len(allowed) > 0 {
		// Nobody was asked, so nobody allowed the commands: run asks for each.
		note += " allowed_commands were not granted, since the user was not asked: run asks before each of them."
		allowed = nil
	}
	if !d.approve {
		// The same plan must not be presented again: it is stale until revised.
		s.mu.Lock()
		delete(s.planPhase, p.Rel)
		s.mu.Unlock()
		m.notify(ctx, fmt.Sprintf("[plan-mode] rejected plan=%s reason=%s", notifyPath(p.Rel), oneLine(d.reason)))
		return tools.Failf("%s", rejectionFollowUp(d.reason)), nil
	}
	if err := s.approve(ctx, p.Rel, text, allowed, d.source); err != nil {
		return tools.Result{}, err
	}
	res.ExitedPlanMode, res.Approved = true, true
	res.Message = "The user approved the plan."
	if !requireApproval {
		res.Message = "The plan is approved (this workspace needs no approval from the user)."
	}
	res.Message += " You are now in BUILD mode: carry out the plan step by step, ticking each checkbox in the plan with plan_edit as you finish it." + note
	return tools.OK(res), nil
}

// notifyPath is a path as the notify lines show it: as it is, or quoted
// when it holds spaces or control characters that could break or forge a line.
func notifyPath(rel string) string {
	for _, c := range rel {
		if unicode.IsSpace(c) || unicode.IsControl(c) {
			return strconv.Quote(rel)
		}
	}
	return rel
}

// oneLine collapses every run of white space (line breaks included) into
// one space, so that free text (a rejection reason) stays on its notify line.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
}

// awaitApproval shows the plan and waits for the first decision: the
// approval dialog, agent/resolvePlan, the timeout, or cancellation.
func (s *Session) awaitApproval(ctx context.Context, ap *pendingApproval, p workspace.Path, allowed []string) (decision, error) {
	m := s.m
	m.notify(ctx, fmt.Sprintf("[plan-mode] awaiting approval plan=%s (resolve via agent/resolvePlan)", notifyPath(p.Rel)))
	askCtx, cancelAsk := context.WithCancel(ctx)
	defer cancelAsk() // withdraws the dialog when another UI decided first
	// The dialog runs on its own: a slow editor delays neither the timeout
	// nor agent/resolvePlan. Close waits for it (it ends with askCtx).
	if m.startBackground() {
		go func() {
			defer m.wg.Done()
			s.showApproval(askCtx, ap, p, allowed)
		}()
	}
	timer := time.NewTimer(m.approvalTimeout())
	defer timer.Stop()
	select {
	case d := <-ap.decide:
		return d, nil
	case <-timer.C:
		if d, ok := ap.stop(); ok { // decided at the last moment: honour it
			return d, nil
		}
		m.notify(ctx, fmt.Sprintf("[plan-mode] approval timed out plan=%s", notifyPath(p.Rel)))
		return decision{}, errApprovalTimeout
	case <-ctx.Done():
		ap.stop() // a decision offered now is not carried out
		return decision{}, ctx.Err()
	}
}

// showApproval opens the plan and shows the approval dialog; the user's
// decision is offered to ap.
func (s *Session) showApproval(askCtx context.Context, ap *pendingApproval, p workspace.Path, allowed []string) {
	m := s.m
	if err := m.editor.ShowDocument(askCtx, p.Abs); err != nil && askCtx.Err() == nil {
		slog.Warn("show plan", "plan", p.Rel, "err", err)
	}
	if d, ok := s.askApproval(askCtx, p.Rel, allowed); ok {
		ap.offer(d)
	}
}

// startApproval registers a pending approval for agent/resolvePlan.
func (s *Session) startApproval(rel string) *pendingApproval {
	ap := &pendingApproval{plan: rel, decide: make(chan decision, 1), done: make(chan struct{})}
	s.mu.Lock()
	s.approval = ap
	s.mu.Unlock()
	return ap
}

// finishApproval withdraws the pending approval once its outcome is settled
// (applied: the accepted decision was carried out), releasing a waiting
// agent/resolvePlan.
func (s *Session) finishApproval(ap *pendingApproval, applied bool) {
	ap.stop()
	s.mu.Lock()
	if s.approval == ap {
		s.approval = nil
	}
	s.mu.Unlock()
	ap.settle(applied)
}

// askApproval puts the approval question to the user. ok is false when the
// editor cannot ask (agent/resolvePlan decides then) or the ask was withdrawn.
func (s *Session) askApproval(ctx context.Context, rel string, allowed []string) (decision, bool) {
	m := s.m
	text := fmt.Sprintf("Review the plan `%s`. Accept it and start building?", rel)
	if len(allowed) > 0 {
		text += "\n\nApproving also allows these commands for this session: `" + strings.Join(allowed, "`, `") + "`"
	}
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
	reply, err := m.editor.Ask(ctx, AskRequest{
		SessionID: s.meta.ID, QuestionID: id.String(), Set: set, Purpose: "plan_approval", PlanFile: rel, CreatedAt: m.now(),
		// The safe action first: eglot takes the first one on a bare Enter.
		Actions: []questions.Action{{Title: "Keep Planning", Value: false}, {Title: "Accept & Build", Value: true}},
	})
	switch {
	case errors.Is(err, ErrNoSurface):
		return decision{}, false
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
		return decision{approve: true, source: "tool"}, true
	}
	if strings.TrimSpace(feedback) == "" {
		feedback = KeepPlanningReason
	}
	return decision{reason: strings.TrimSpace(feedback), source: "tool"}, true
}

// approve carries out an approval: plan status approved, allowed commands
// remembered, mode → build (source: "tool" for the dialog, "user" for
// agent/resolvePlan and agent/setMode).
func (s *Session) approve(ctx context.Context, rel, presented string, allowed []string, source string) error {
	m := s.m
	if err := m.setPlanStatus(ctx, s, rel, workspace.PlanApproved); err != nil {
		slog.Warn("mark plan approved", "plan", rel, "err", err)
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
	m.notify(ctx, fmt.Sprintf("[plan-mode] approved plan=%s", notifyPath(rel)))
	s.setMode(ctx, guard.ModeBuild, source, "")
	text := ""
	if p, err := m.ws.Resolve(rel); err == nil {
		text, _ = m.ws.ReadFile(p)
	}
	if plan, err := workspace.ParsePlan(text); err == nil {
		text = plan.Body
	}
	m.notify(ctx, fmt.Sprintf("[plan-mode] exited — plan: %s…", firstRunes(text, 200)))
	return nil
}

// ResolvePlan decides the pending approval from any UI (agent/resolvePlan).
func (m *Manager) ResolvePlan(ctx context.Context, id, decisionName, reason string) (Info, error) {
	s, err := m.session(id)
	if err != nil {
		return Info{}, err
	}
	d := decision{source: "user"}
	switch decisionName {
	case "approve":
		d.approve = true
	case "reject":
		if strings.TrimSpace(reason) == "" {
			return Info{}, invalidf("a rejection needs a non-empty reason")
		}
		d.reason = strings.TrimSpace(reason)
	default:
		return Info{}, invalidf("decision must be \"approve\" or \"reject\", not %q", decisionName)
	}
	s.mu.Lock()
	ap := s.approval
	s.mu.Unlock()
	if ap == nil {
		return Info{}, invalidf("no plan is awaiting approval in session %s", id)
	}
	offered, applied, err := ap.resolve(ctx, d)
	switch {
	case !offered:
		return Info{}, invalidf("the plan approval in session %s was already decided", id)
	case err != nil:
		return Info{}, err
	case !applied:
		return Info{}, invalidf("the plan approval in session %s was withdrawn (the turn was cancelled) before the decision took effect", id)
	}
	return s.Info(), nil
}

// approvePending approves the plan awaiting approval, if any, as the user's
// explicit switch to build mode (agent/setMode): the approval's own path
// then switches the mode, marks the plan approved and withdraws the dialog.
// It reports whether an approval was pending and is now carried out.
func (s *Session) approvePending(ctx context.Context) (bool, error) {
	s.mu.Lock()
	ap := s.approval
	s.mu.Unlock()
	if ap == nil {
		return false, nil
	}
	offered, applied, err := ap.resolve(ctx, decision{approve: true, source: "user"})
	if !offered {
		return false, nil
	}
	return applied || err != nil, err
}

// setPlanStatus rewrites a plan's status through the editor (guarded like any edit).
func (m *Manager) setPlanStatus(ctx context.Context, s *Session, rel string, status workspace.PlanStatus) error {
	p, err := m.ws.Resolve(rel)
	if err != nil {
		return err
	}
	text, err := m.ws.ReadFile(p)
	if err != nil {
		return err
	}
	updated, err := workspace.SetPlanStatus(text, status)
	if err != nil {
		return err
	}
	if updated == text {
		return nil
	}
	c, err := m.ws.ComputeWrite(p, updated)
	if err != nil {
		return err
	}
	e := &env{s: s, system: true, ctx: ctx} // agentls's own status change: no plan lock holds it back
	return e.Apply(ctx, "plan_edit", fmt.Sprintf("Mark plan %s %s", rel, status), []workspace.Change{c})
}

func firstRunes(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}

// AwaitingApproval returns the session whose approval of the plan at rel
// (workspace-relative) is pending, if any.
func (m *Manager) AwaitingApproval(rel string) (string, bool) {
	for _, s := range m.loaded() {
		s.mu.Lock()
		ap := s.approval
		s.mu.Unlock()
		if ap != nil && ap.plan == rel {
			return s.meta.ID, true
		}
	}
	return "", false
}
