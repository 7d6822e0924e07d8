package server_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// parentWriterScript: a plan-mode session of the project's parent folder
// rewrites the plan the project builds.
const parentWriterScript = `
name: parent-writer
steps:
  - tool_calls:
      - {id: w, name: write, args: {path: proj/plans/x.plan, content: "mine"}}
  - text: done
`

// TestPlanLockOfAnotherWorkspaceSurvivesASecondBuildersRelease: the
// project's window builds plans/x.plan (its session's entry in the state
// folder's plan locks). In the parent folder's window the user starts a
// second build of the same plan (agentls.buildPlan proj/plans/x.plan), then
// stops it (agent/setMode plan). The registry keeps one entry per plan:
// the parent's Take replaced the project's entry, and its Release removed
// it, so nothing records that the project's session still builds the plan.
// A plan-mode session of the parent then rewrites the plan the project's
// session is carrying out: the lock of docs/guard.md "Plans being built"
// ("every workspace's guard reads the live entries") no longer holds,
// though its builder never left build mode.
func TestPlanLockOfAnotherWorkspaceSurvivesASecondBuildersRelease(t *testing.T) {
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
		t.Fatalf("buildPlan in the project: %v", err)
	}

	p := lsptest.Start(t, lsptest.Setup{Dir: parent, Env: env, Script: parentWriterScript})
	var second agentproto.Session
	if err := command(p, "agentls.buildPlan", map[string]any{"path": "proj/plans/x.plan"}, &second); err != nil {
		t.Logf("buildPlan in the parent: %v", err)
	} else {
		var info agentproto.Session
		if err := p.Editor.Call(p.Ctx, "agent/setMode", map[string]any{"sessionId": second.SessionID, "mode": "plan"}, &info); err != nil {
			t.Fatal(err)
		}
	}
	approved := b.Read(lockedPlan)

	planner := p.NewSession("plan")
	wantStop(t, p.Prompt(planner.SessionID, "rewrite proj/plans/x.plan"), "end_turn")
	if ok, _, _ := planToolResult(p, "w"); ok {
		t.Errorf("a plan-mode session of the parent rewrote proj/plans/x.plan while the project's session %s still builds it "+
			"(the parent's second build replaced the project's plan-lock entry, and stopping it removed the entry)", builder.SessionID)
	}
	if got := b.Read(lockedPlan); got != approved {
		t.Errorf("the plan being built changed from the parent:\n%s", got)
	}
}
