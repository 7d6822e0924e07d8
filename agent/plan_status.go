package agent

import (
	"context"
	"fmt"

	"github.com/agentls/agentls/workspace"
)

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
