package agent

import (
	"context"

	"github.com/agentls/agentls/agent/tools"
)

// buildRefused is the error of every switch to build mode in a workspace
// that allows none (Options.PlanOnly: a workspace at the home folder); nil
// where build mode is allowed. The session stays in plan mode.
func (m *Manager) buildRefused() error {
	if m.planOnly == "" {
		return nil
	}
	return invalidf("build mode is refused: %s", m.planOnly)
}

// exitPlanRefused is exit_plan_mode's result in such a workspace: the plan
// cannot be approved for building here, so the model is told before the
// user is asked.
func (m *Manager) exitPlanRefused(_ context.Context) (tools.Result, bool) {
	if m.planOnly == "" {
		return tools.Result{}, false
	}
	return tools.Failf("the plan cannot be built in this workspace: %s. The plan stays as written; tell the user to open the project's folder and build it there", m.planOnly), true
}
