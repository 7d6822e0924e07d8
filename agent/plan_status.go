package agent

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/agentls/agentls/agent/textline"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// setPlanStatus rewrites a plan's status through the editor, as
// guard.SystemActor under guard.SystemState: both layers of the guard check
// it with plan mode's rules (only the plan document may change) whatever
// the session's mode, and no plan lock holds it back. s is the session it
// is done for (its approval, build or completion: its plan updates and
// approved text follow), or nil for none (the user's archive).
func (m *Manager) setPlanStatus(ctx context.Context, s *Session, rel string, status agentproto.PlanStatus) error {
	p, text, err := m.readRel(rel)
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
	label := fmt.Sprintf("%s: mark plan %s %s", guard.SystemActor, rel, status)
	changes := []workspace.Change{c}
	if s == nil {
		err = m.applyOwnedSystem(ctx, label, changes)
	} else {
		e := &env{s: s, system: true, ctx: ctx}
		err = e.Apply(ctx, guard.SystemActor, label, changes)
	}
	if err == nil && (status == agentproto.PlanImplemented || status == agentproto.PlanArchived) {
		m.planFinishedLock(rel)
	}
	return err
}

// markForBuild sets the status of the plan rel when the user switches to
// build with it attached (agent/setMode, agentls.buildPlan): approved, or
// implemented when every step is already ticked — what build mode would
// set right after (completePlan). So a finished plan is not reopened by a
// mode switch: no flip to approved and back, and no edit at all when it
// already says implemented.
func (m *Manager) markForBuild(ctx context.Context, s *Session, rel string) {
	status := agentproto.PlanApproved
	if text, err := m.readPlanText(rel); err == nil {
		if plan, err := workspace.ParsePlan(text); err == nil && len(plan.Steps) > 0 && plan.StepsDone() == len(plan.Steps) {
			status = agentproto.PlanImplemented
		}
	}
	if err := m.setPlanStatus(ctx, s, rel, status); err != nil {
		m.planStatusFailed(ctx, rel, status, err)
	}
}

// planStatusFailed tells the user that the plan's status could not be
// written (the editor refused the edit, a full disk): the session goes on
// in its mode while the plan says otherwise.
func (m *Manager) planStatusFailed(ctx context.Context, rel string, status agentproto.PlanStatus, err error) {
	slog.Warn("mark plan "+string(status), "plan", rel, "err", err)
	m.notify(ctx, fmt.Sprintf("[plan-mode] could not mark plan=%s %s: %s", textline.Path(rel), status, textline.OneLine(err.Error())))
}

// applyOwnedSystem applies agentls's own change to plans no session is
// working on (the user's archive), through each plan's owner
// (plan_owner.go): a change the plan already has is dropped.
func (m *Manager) applyOwnedSystem(ctx context.Context, label string, changes []workspace.Change) error {
	changes, release, err := m.ownPlans(ctx, changes, nil)
	if err != nil {
		return err
	}
	defer release()
	if len(changes) == 0 {
		return nil
	}
	return m.guardedApply(ctx, "", guard.SystemActor, label, guard.SystemState, changes)
}
