package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/agentls/agentls/agent/textline"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/internal/allowrule"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/questions"
	"github.com/agentls/agentls/workspace"
)

// env is a session as its tools see it (tools.Env). A system env carries
// out agentls's own status changes on the session's behalf, as
// guard.SystemActor under guard.SystemState.
type env struct {
	s      *Session
	system bool
	// ctx is the turn's: what the tools send to the editor honours it.
	ctx context.Context
	// start is the scan of the call's command (nil for a call that runs
	// none): taken when the command starts (CommandStarting).
	start *commandStart
}

// context is the turn's context (Background for an env built without one).
func (e *env) context() context.Context {
	if e.ctx == nil {
		return context.Background()
	}
	return e.ctx
}

var _ tools.Env = (*env)(nil)

func (e *env) Workspace() *workspace.Workspace { return e.s.m.ws }
func (e *env) Guard() *guard.Guard             { return e.s.guard() }
func (e *env) Config() config.Config           { return e.s.m.config() }
func (e *env) PlanFile() string                { return e.s.planFile() }

// State is the session's state; a system env's is guard.SystemState.
func (e *env) State() guard.State {
	if e.system {
		return guard.SystemState()
	}
	return e.s.State()
}

// Apply runs the guard on the computed changes (mode read now), then hands
// them to the editor, whose applier runs the guard once more on the exact
// operations it sends.
func (e *env) Apply(ctx context.Context, tool, label string, changes []workspace.Change) error {
	s, m := e.s, e.s.m
	// Plan edits go through the plan's owner (plan_owner.go): carried onto
	// its current text, applied one at a time.
	changes, release, err := m.ownPlans(ctx, changes, e.completeWith)
	if err != nil {
		return err
	}
	if len(changes) == 0 {
		release()
		return nil // the plan already says it
	}
	touchesPlan, err := e.applyOwned(ctx, tool, label, changes)
	release()
	if err != nil {
		s.sendTickRefused(ctx, err) // tick_refusal.go: the plan update says why
		return err
	}
	if !touchesPlan {
		return nil
	}
	// A sub-agent ticks its root's plan: the root's updates and status.
	s.rootSession().sendPlanUpdate(ctx)
	s.rootSession().planEdited(ctx) // plans.go: other sessions' updates, implemented
	return nil
}

// applyOwned is Apply's part under the plan owners: the guard, the editor,
// and the approved text following the builder's own write. It reports
// whether the changes touched the session's plan.
func (e *env) applyOwned(ctx context.Context, tool, label string, changes []workspace.Change) (bool, error) {
	s, m := e.s, e.s.m
	plan := s.planFile()
	touchesPlan := false
	for _, c := range changes {
		for _, p := range c.Targets() {
			touchesPlan = touchesPlan || (plan != "" && s.m.ws.Key(p) == plan)
		}
	}
	var before string
	if touchesPlan {
		before, _ = m.readPlanText(plan)
	}
	if err := s.beforeEdit(ctx, tool, changes); err != nil { // language_intel.go: baselines, the tick's check
		return false, err
	}
	s.stepTick(ctx, tool, changes) // checkpoints.go
	if err := e.reviewedApply(ctx, tool, label, changes); err != nil {
		return false, err
	}
	s.afterEdit(ctx, tool, changes)
	s.knowWrites(changes)
	s.mu.Lock()
	for _, c := range changes {
		for _, p := range c.Targets() {
			s.edited[p.Abs] = true
		}
	}
	s.mu.Unlock()
	if touchesPlan {
		if after, err := m.readPlanText(plan); err == nil {
			s.rootSession().ownWrite(plan, before, after) // baseline.go: the approved text follows the builder (a sub-agent's root's)
		}
	}
	return touchesPlan, nil
}

// guardedApply checks changes made by actor (a tool, or guard.SystemActor)
// under the state that state reads at each check (the mode is read now),
// then hands them to the editor, whose applier runs the guard once more on
// the exact operations it sends. sessionID is the session the change is
// made for ("" for none).
func (m *Manager) guardedApply(ctx context.Context, sessionID, actor, label string, state func() guard.State, changes []workspace.Change) error {
	if r := m.Guard().CheckChanges(state(), actor, changes); r != nil {
		return r
	}
	return m.applier.Apply(ctx, m.guardedRequest(sessionID, actor, label, state, changes))
}

// guardedRequest is the ApplyRequest of guardedApply: its Check is the
// guard's last check under state.
func (m *Manager) guardedRequest(sessionID, actor, label string, state func() guard.State, changes []workspace.Change) ApplyRequest {
	return ApplyRequest{
		SessionID: sessionID, Actor: actor, Label: label, Changes: changes,
		Check: func(ops []guard.Op) error {
			if r := m.Guard().CheckOps(state(), actor, ops); r != nil {
				return r
			}
			return nil
		},
	}
}

// PlanWritten records a plan the model wrote in this planning phase and
// attaches it when the session has none.
func (e *env) PlanWritten(rel, text string) {
	s := e.s
	s.mu.Lock()
	s.planPhase[rel] = text
	attach := s.meta.PlanFile == "" && agentproto.Mode(s.meta.Mode) == agentproto.ModePlan
	s.mu.Unlock()
	if attach {
		// Apply could not send the plan update before the plan was attached.
		s.attachPlan(rel)
		s.sendPlanUpdate(e.context())
	}
}

// sendPlanUpdate sends the attached plan's steps as an ACP plan update.
func (s *Session) sendPlanUpdate(ctx context.Context) {
	if u, ok := s.planUpdate(); ok {
		s.m.notes.Update(ctx, s.meta.ID, u)
	}
}

// planUpdate is the plan update of the attached plan as it stands; false
// when no plan is attached or it cannot be read.
func (s *Session) planUpdate() (agentproto.PlanUpdate, bool) {
	rel := s.planFile()
	if rel == "" {
		return agentproto.PlanUpdate{}, false
	}
	text, err := s.m.readPlanText(rel)
	if err != nil {
		return agentproto.PlanUpdate{}, false
	}
	return agentproto.PlanUpdate{SessionUpdate: "plan", PlanFile: rel, Entries: planEntries(text)}, true
}

// Ask puts questions to the user; without a surface they stay pending and
// the turn ends with question_pending.
func (e *env) Ask(ctx context.Context, set *questions.Set) (tools.Answer, error) {
	s := e.s
	id, err := uuid.NewV7()
	if err != nil {
		return tools.Answer{}, fmt.Errorf("question id: %w", err)
	}
	req := AskRequest{SessionID: s.faceID(), QuestionID: id.String(), Set: set, Purpose: "question", CreatedAt: s.m.now()}
	reply, err := s.m.askUser(ctx, req)
	switch {
	case errors.Is(err, ErrNoSurface) && s.sub != nil:
		return tools.Answer{}, errors.New("the editor cannot ask now, and a sub-agent cannot leave a question pending: decide with what you know, and say what you assumed in your answer")
	case errors.Is(err, ErrNoSurface):
		s.mu.Lock()
		if err := ctx.Err(); err != nil {
			// agent/cancel came first: the question is withdrawn before it is pending.
			s.mu.Unlock()
			return tools.Answer{}, err
		}
		s.pending = &pendingQuestion{id: req.QuestionID, set: set, createdAt: req.CreatedAt, turn: s.turnEnded}
		s.mu.Unlock()
		s.m.notes.Update(ctx, s.meta.ID, UpdateQuestion{
			SessionUpdate: "question_pending", QuestionID: req.QuestionID,
			Questions: set.Questions, CreatedAt: req.CreatedAt.Format(time.RFC3339),
		})
		return tools.Answer{Status: "question_pending", QuestionID: req.QuestionID}, nil
	case err != nil:
		return tools.Answer{}, err
	case reply.Dismissed:
		return tools.Answer{Status: "dismissed"}, nil
	}
	if errs := set.ValidateContext(ctx, reply.Answers); errs != nil {
		return tools.Answer{}, fmt.Errorf("the user's answers do not fit the questions: %s", questions.ValidationError(errs))
	}
	return tools.Answer{Status: "answered", Answers: reply.Answers}, nil
}

// EnterPlanMode is the model's switch to plan mode.
func (e *env) EnterPlanMode(reason string) tools.EnterResult {
	s := e.s
	why := "model"
	if r := textline.OneLine(reason); r != "" {
		why = "model: " + r // one line: it ends the "[plan-mode] entered" notify line
	}
	changed := s.setMode(e.context(), agentproto.ModePlan, "tool", why)
	st := s.State()
	return tools.EnterResult{
		EnteredPlanMode:   true,
		AlreadyInPlanMode: !changed,
		EnteredAt:         st.EnteredAt.UTC().Format(time.RFC3339),
		Reason:            reason,
		Instructions: "You are in PLAN mode: explore with read, ls, glob and grep, ask with ask_user, " +
			"write the plan with plan_write, then call exit_plan_mode with its path. Only .plan files can change.",
	}
}

// ConfirmRun asks the user before a command runs, unless an allow rule
// lets it run unasked (autoAllow, runrules.go: run.allow, the plan's
// allowed_commands, an earlier "Always allow" in this session). Anything
// the shell would read as more than one simple command is always asked,
// and "Always allow" is offered only for a line whose exact rule grants no
// more than it shows (allowrule.Offerable), run in a workspace folder. The
// question goes through the permission service and names the command, its
// folder, its network and the sandbox (run_permission.go).
func (e *env) ConfirmRun(ctx context.Context, req tools.RunRequest) (tools.RunPermit, error) {
	s := e.s
	req.Command = strings.TrimSpace(req.Command)
	d := s.autoAllow(req)
	unconfined := s.m.unconfinedRun() // no sandbox: every command is asked
	if d.Rule != "" && unconfined == "" {
		return tools.RunPermit{Run: true, Rule: d.Rule}, nil
	}
	command := req.Command
	offered := d.NotSimple == "" && d.Offer
	pr := s.runPermission(ctx, command, req.Dir, d)
	if unconfined != "" {
		pr.Note = strings.TrimSpace(pr.Note + "\n\nNo sandbox: " + unconfined + ".")
	}
	dec, err := s.m.Permit(ctx, pr)
	if errors.Is(err, permission.ErrNoSurface) {
		return tools.RunPermit{}, fmt.Errorf("the editor cannot ask for permission to run commands; add the command to run.allow in .agentls.yaml")
	}
	if err != nil || dec.Dismissed {
		return tools.RunPermit{}, err
	}
	switch dec.Option {
	case agentproto.AllowOnce:
		return tools.RunPermit{Run: true}, nil
	case agentproto.AllowAlways:
		if !offered {
			return tools.RunPermit{Run: true}, nil // not offered; the answer still says run
		}
		rule, err := allowrule.Exact(command)
		if err != nil {
			return tools.RunPermit{Run: true}, nil
		}
		root := s.rootSession() // a sub-agent's "Always" is its root's
		root.mu.Lock()
		root.allowed = append(root.allowed, rule)
		root.mu.Unlock()
		return tools.RunPermit{Run: true}, nil
	}
	return tools.RunPermit{}, nil
}

// UnsavedEdited lists files the agent edited that the editor holds unsaved,
// except plans: a plan's buffer is its truth (in a plain editor the agent's
// ticks land there only) and a build's commands do not read it.
func (e *env) UnsavedEdited() []string {
	s := e.s
	s.mu.Lock()
	paths := make([]string, 0, len(s.edited))
	for p := range s.edited {
		paths = append(paths, p)
	}
	s.mu.Unlock()
	var out []string
	for _, p := range paths {
		if !s.m.ws.Overlay().IsDirty(p) {
			continue
		}
		if wp, err := s.m.ws.Resolve(p); err == nil && e.Guard().IsPlanTarget(wp) {
			continue
		}
		out = append(out, s.m.ws.RelOf(p))
	}
	sort.Strings(out)
	if len(out) > 0 {
		slog.Debug("unsaved edited files", "files", out)
	}
	return out
}

// askUser is editor.Ask bounded by plan_mode.approval_timeout_secs: a
// question nobody answers ends the wait with an error the model reads.
func (m *Manager) askUser(ctx context.Context, req AskRequest) (AskReply, error) {
	timeout := m.approvalTimeout()
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	reply, err := m.asker.Ask(actx, req)
	if err == nil {
		noteAsked(ctx, req.Set, reply) // tool_outcome.go
	}
	if err != nil && ctx.Err() == nil && actx.Err() != nil {
		slog.Warn("question timed out", "session", req.SessionID, "question", req.QuestionID, "timeout", timeout)
		return AskReply{}, fmt.Errorf("the user did not answer within %s (plan_mode.approval_timeout_secs); the question was withdrawn", timeout)
	}
	return reply, err
}

// approvalTimeout is how long a question or a plan approval waits for the
// user (plan_mode.approval_timeout_secs; 24 h when unset).
func (m *Manager) approvalTimeout() time.Duration {
	if secs := m.config().PlanMode.ApprovalTimeoutSecs; secs > 0 {
		return time.Duration(secs) * time.Second
	}
	return 24 * time.Hour
}
