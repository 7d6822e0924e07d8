package server_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// parentPlannerScript: a plan-mode session of the project's parent folder
// tries to rewrite the plan the project builds; later, once the build
// ended, it writes it.
const parentPlannerScript = `
name: parent-planner
steps:
  - tool_calls:
      - {id: w, name: write, args: {path: proj/plans/x.plan, content: "mine"}}
      - {id: pe, name: plan_edit, args: {path: proj/plans/x.plan, old_string: "one", new_string: "uno"}}
      - {id: pw, name: plan_write, args: {path: proj/plans/x.plan, title: Mine, content: "## Steps\n- [ ] mine\n"}}
      - {id: rm, name: rm, args: {path: proj/plans/x.plan}}
  - text: refused
  - tool_calls:
      - {id: w2, name: write, args: {path: proj/plans/x.plan, content: "mine"}}
  - text: written
`

// TestPlanLockAcrossWorkspaces (issue 17 item 6): a plan the project builds
// is locked for a second server whose workspace is the project's parent
// folder (another editor window): every change is refused with the lock's
// sentence, the plan stays as approved; once the builder leaves build mode
// the lock is gone there too.
func TestPlanLockAcrossWorkspaces(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	parent := filepath.Join(base, "p")
	proj := filepath.Join(parent, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"XDG_STATE_HOME": filepath.Join(base, "state"), "XDG_CONFIG_HOME": filepath.Join(base, "config"), "HOME": filepath.Join(base, "home")}
	b := lsptest.Start(t, lsptest.Setup{Dir: proj, Env: env, Files: map[string]string{lockedPlan: lockedPlanText}})
	var builder agentproto.Session
	if err := command(b, "agentls.buildPlan", map[string]any{"path": lockedPlan}, &builder); err != nil {
		t.Fatalf("buildPlan: %v", err)
	}
	approved := b.Read(lockedPlan)
	locks, _ := os.ReadDir(filepath.Join(config.StateDir(func(k string) string { return env[k] }), "planlocks"))
	if len(locks) != 1 {
		t.Fatalf("plan locks registered: %v, want one", locks)
	}

	p := lsptest.Start(t, lsptest.Setup{Dir: parent, Env: env, Script: parentPlannerScript})
	planner := p.NewSession("plan")
	wantStop(t, p.Prompt(planner.SessionID, "rewrite proj/plans/x.plan"), "end_turn")
	want := guard.PlanBuiltMessage("proj/plans/x.plan")
	for _, id := range []string{"w", "pe", "pw", "rm"} {
		if ok, _, errText := planToolResult(p, id); ok || errText != want {
			t.Errorf("%s from the parent: success %v, error %q, want %q", id, ok, errText, want)
		}
	}
	if got := b.Read(lockedPlan); got != approved {
		t.Fatalf("the plan being built changed from the parent:\n%s", got)
	}

	// The build ends (the user switches the builder to plan): the lock is
	// released, and the parent's planner may write the plan.
	var info agentproto.Session
	if err := b.Editor.Call(b.Ctx, "agent/setMode", map[string]any{"sessionId": builder.SessionID, "mode": "plan"}, &info); err != nil {
		t.Fatal(err)
	}
	if locks, _ := os.ReadDir(filepath.Join(env["XDG_STATE_HOME"], "agentls", "planlocks")); len(locks) != 0 {
		t.Fatalf("plan locks after the build ended: %v", locks)
	}
	wantStop(t, p.Prompt(planner.SessionID, "now write it"), "end_turn")
	if ok, _, errText := planToolResult(p, "w2"); !ok {
		t.Fatalf("the parent's write after the build ended: %s", errText)
	}
	if got := b.Read(lockedPlan); !strings.Contains(got, "mine") {
		t.Fatalf("plan after the parent's write:\n%s", got)
	}
}
