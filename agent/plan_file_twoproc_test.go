package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/agent/scripted"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// TestPlanOfASecondFolderStaysLockedAndAttachedAcrossARestart: in a
// workspace of two folders (an ACP session's additionalDirectories, a
// multi-root VS Code window) the user builds the plan of the second folder.
// The session file stores plan_file as the path relative to the plan's own
// folder ("plans/x.plan"), and every reader resolves plan_file against the
// first folder: the plan lock (BuiltPlans, read from the session files)
// guards the first folder's plans/x.plan, so a plan-mode session may rewrite
// the plan being built, and the session loaded by the next agentls process
// has the first folder's plan attached instead of the one the user approved.
func TestPlanOfASecondFolderStaysLockedAndAttachedAcrossARestart(t *testing.T) {
	t.Parallel()
	first, second := t.TempDir(), t.TempDir()
	ws, err := workspace.New(first, second)
	if err != nil {
		t.Fatal(err)
	}
	second = ws.Folders()[1]
	planAbs := filepath.Join(second, "plans", "x.plan")
	if err := os.MkdirAll(filepath.Dir(planAbs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(planAbs, []byte(planWithSteps), 0o644); err != nil {
		t.Fatal(err)
	}
	newManager := func() *Manager {
		sc, err := scripted.Parse([]byte(noTurns))
		if err != nil {
			t.Fatal(err)
		}
		m, err := NewManager(Options{Workspace: ws, Config: config.Default(), Provider: scripted.New(sc), Editor: &memEditor{ws: ws}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(m.Close)
		return m
	}
	m := newManager()
	ctx := context.Background()
	info, err := m.BuildPlan(ctx, planAbs)
	if err != nil {
		t.Fatal(err)
	}

	planner := newTestSession(t, m, "plan")
	args, _ := json.Marshal(map[string]string{"path": planAbs, "old_string": "add test", "new_string": "skip the tests"})
	if r := m.Guard().CheckCall(planner.State(), "plan_edit", args); r == nil || r.Reason != guard.ReasonPlanBuilt {
		t.Errorf("a plan-mode session's plan_edit of %s, the plan session %s builds: %v, want the plan-lock refusal (BuiltPlans = %+v)",
			planAbs, info.SessionID, r, m.BuiltPlans())
	}

	// The next agentls process loads the build session.
	m.Close()
	m2 := newManager()
	s, err := m2.session(info.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := ws.Resolve(s.planFile()); err != nil || p.Abs != planAbs {
		t.Errorf("after a restart the build session's plan_file %q resolves to %q (%v), want the plan the user built, %s", s.planFile(), p.Abs, err, planAbs)
	}
}
