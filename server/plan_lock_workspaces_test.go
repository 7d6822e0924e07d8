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
	"github.com/agentls/agentls/workspace"
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

// TestFinishedPlanReleasesItsLock: once the plan a session builds is
// implemented, its entry leaves the state folder's plan locks, whoever set
// the status: agentls after the last tick, the builder in the same
// plan_edit as its last tick (as plan_edit's description asks, and as the
// demo's model does), or the user saving the plan in the editor. Before,
// only agentls's own status write released it: every plan finished the
// other two ways left its entry for good, read again at each plan write of
// every workspace.
func TestFinishedPlanReleasesItsLock(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		script string // the builder's turn; "" for none
		user   bool   // the user ticks and sets the status in the editor, and saves
	}{
		{name: "agentls sets it after the last tick", script: `
name: ticks
steps:
  - tool_calls:
      - {id: t, name: plan_edit, args: {path: plans/x.plan, old_string: "- [ ] one\n- [ ] two", new_string: "- [x] one\n- [x] two"}}
  - text: done
`},
		{name: "the builder sets it with the last tick", script: `
name: ticks-and-status
steps:
  - tool_calls:
      - {id: t, name: plan_edit, args: {path: plans/x.plan, old_string: "- [ ] one\n- [ ] two", new_string: "- [x] one\n- [x] two", status: implemented}}
  - text: done
`},
		{name: "the user sets it in the editor", user: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base := t.TempDir()
			env := map[string]string{"XDG_STATE_HOME": filepath.Join(base, "state"), "XDG_CONFIG_HOME": filepath.Join(base, "config"), "HOME": filepath.Join(base, "home")}
			h := lsptest.Start(t, lsptest.Setup{Env: env, Files: map[string]string{lockedPlan: lockedPlanText}, Script: tc.script})
			var s agentproto.Session
			if err := command(h, "agentls.buildPlan", map[string]any{"path": lockedPlan}, &s); err != nil {
				t.Fatalf("buildPlan: %v", err)
			}
			dir := filepath.Join(env["XDG_STATE_HOME"], "agentls", "planlocks")
			if locks, _ := os.ReadDir(dir); len(locks) != 1 {
				t.Fatalf("plan locks while building: %v, want one", locks)
			}
			done := strings.NewReplacer("status: draft", "status: implemented", "- [ ]", "- [x]").Replace(lockedPlanText)
			if tc.user {
				approved := h.Read(lockedPlan)
				if err := h.Editor.Open(h.Ctx, lockedPlan, approved); err != nil {
					t.Fatal(err)
				}
				lines := strings.Count(approved, "\n")
				if err := h.Editor.Change(h.Ctx, lockedPlan, workspace.TextEdit{Range: workspace.Range{End: workspace.Position{Line: uint32(lines)}}, NewText: done}); err != nil {
					t.Fatal(err)
				}
				if err := h.Editor.Save(h.Ctx, lockedPlan); err != nil {
					t.Fatal(err)
				}
				// The plan's changes are told to the sessions one after
				// another: once the update of a later change comes, the
				// one that finished the plan has been handled whole.
				h.AwaitMessage("agent/update", `{"content":"one","priority":"medium","status":"completed"},{"content":"two","priority":"medium","status":"completed"}`)
				line := uint32(strings.Count(done[:strings.Index(done, "- [x] one")], "\n"))
				if err := h.Editor.Change(h.Ctx, lockedPlan, workspace.TextEdit{Range: workspace.Range{Start: workspace.Position{Line: line, Character: 6}, End: workspace.Position{Line: line, Character: 9}}, NewText: "uno"}); err != nil {
					t.Fatal(err)
				}
				h.AwaitMessage("agent/update", `{"content":"uno","priority":"medium","status":"completed"}`)
				done = strings.Replace(done, "- [x] one", "- [x] uno", 1)
				if err := h.Editor.Save(h.Ctx, lockedPlan); err != nil {
					t.Fatal(err)
				}
			} else {
				// The lock goes with the tool call's edit, before the turn ends.
				wantStop(t, h.Prompt(s.SessionID, "build it"), "end_turn")
			}
			if got := h.Read(lockedPlan); got != done {
				t.Fatalf("the plan =\n%s\nwant\n%s", got, done)
			}
			if locks, _ := os.ReadDir(dir); len(locks) != 0 {
				t.Fatalf("plan locks once the plan is implemented: %v, want none", locks)
			}
		})
	}
}
