package server_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/server/internal/lsptest"
	"github.com/agentls/agentls/workspace"
)

// This file proves the lock on a plan another session builds (issue 7 item
// 4), through the real server: a plan-mode session cannot change the plan a
// build session carries out, by any tool; the builder can; the lock holds
// after a restart; and a change by another route (the editor, a checkout)
// reaches the builder's next request as "changed since approval" with a
// diff, and the user as a `plan` update.

const lockedPlan = "plans/x.plan"

const lockedPlanText = "---\ntitle: X\nstatus: draft\ncreated_at: 2024-01-01T00:00:00Z\n---\n## Steps\n- [ ] one\n- [ ] two\n"

// lockedMsg is the refusal the planner reads for every attempt.
var lockedMsg = guard.PlanBuiltMessage(lockedPlan)

// plannerAttempts is a script step: a plan-mode session tries every tool on
// the plan being built, and writes a plan of its own.
const plannerAttempts = `
  - tool_calls:
      - {id: w, name: write, args: {path: plans/x.plan, content: "mine"}}
      - {id: e, name: edit, args: {path: plans/x.plan, old_string: "one", new_string: "uno"}}
      - {id: pe, name: plan_edit, args: {path: plans/x.plan, old_string: "one", new_string: "uno"}}
      - {id: pw, name: plan_write, args: {path: plans/x.plan, title: Mine, content: "## Steps\n- [ ] mine\n"}}
      - {id: t, name: touch, args: {path: plans/x.plan}}
      - {id: mv, name: mv, args: {from: plans/x.plan, to: plans/y.plan}}
      - {id: onto, name: mv, args: {from: plans/other.plan, to: plans/x.plan}}
      - {id: rm, name: rm, args: {path: plans/x.plan}}
      - {id: own, name: plan_write, args: {path: plans/mine.plan, title: Mine, content: "## Steps\n- [ ] mine\n"}}
  - text: refused
    expect:
      tool_result_contains:
        own: ['"success":true']
`

var lockedAttempts = []string{"w", "e", "pe", "pw", "t", "mv", "onto", "rm"}

// checkPlannerRefused checks the planner's attempts: each refused with the
// plan's own sentence, none with the plan-mode one; the plan unchanged.
func checkPlannerRefused(h *lsptest.Env, want string) {
	h.T.Helper()
	for _, id := range lockedAttempts {
		ok, _, errText := planToolResult(h, id)
		if ok || errText != lockedMsg {
			h.T.Errorf("%s: success %v, error %q, want %q", id, ok, errText, lockedMsg)
		}
	}
	if ok, _, errText := planToolResult(h, "own"); !ok {
		h.T.Errorf("the planner's own plan: %s", errText)
	}
	if got := h.Read(lockedPlan); got != want {
		h.T.Fatalf("the plan being built changed:\n%s\nwant\n%s", got, want)
	}
	if _, err := os.Stat(filepath.Join(h.Dir, "plans", "y.plan")); !os.IsNotExist(err) {
		h.T.Fatalf("plans/y.plan exists (err %v)", err)
	}
	if got := h.Read("plans/other.plan"); got != "other\n" {
		h.T.Fatalf("plans/other.plan = %q", got)
	}
}

func TestPlanBeingBuiltIsLocked(t *testing.T) {
	t.Parallel()
	noResourceOps := lsptest.FullCaps()
	noResourceOps["workspace"] = map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true}}
	const userStep = "- [ ] three (user)\n"
	tests := []struct {
		name     string
		caps     map[string]any
		initOpts map[string]any
		// change is the user's change of the plan outside the agent.
		change func(h *lsptest.Env, text string)
	}{
		{"editor, resourceOperations", nil, nil, editorChange},
		{"editor, no resourceOperations", noResourceOps, nil, editorChange},
		{"checkout, edits on disk", nil, map[string]any{"edits": "disk"}, func(h *lsptest.Env, text string) {
			if err := os.WriteFile(filepath.Join(h.Dir, lockedPlan), []byte(text+userStep), 0o644); err != nil {
				h.T.Fatal(err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := lsptest.Start(t, lsptest.Setup{
				Caps: tc.caps, InitOpts: tc.initOpts,
				Files: map[string]string{lockedPlan: lockedPlanText, "plans/other.plan": "other\n"},
				Script: `
name: plan-lock
steps:` + plannerAttempts + `
  - tool_calls:
      - {id: tick, name: plan_edit, args: {path: plans/x.plan, old_string: "- [ ] one", new_string: "- [x] one"}}
    expect:
      system_contains: ["## APPROVED EXECUTION PLAN", "Source: plans/x.plan\n", "- [ ] one"]
      system_not_contains: ["changed since approval"]
  - text: ticked
    expect:
      tool_result_contains: {tick: ['"success":true']}
      system_contains: ["- [x] one"]
      system_not_contains: ["changed since approval"]
  - text: noted
    expect:
      system_contains: ["Source: plans/x.plan (changed since approval", "What changed since approval:", "+- [ ] three (user)", "- [x] one"]
`,
			})
			var builder agentproto.Session
			if err := command(h, "agentls.buildPlan", map[string]any{"path": lockedPlan}, &builder); err != nil {
				t.Fatalf("buildPlan: %v", err)
			}
			approved := strings.Replace(lockedPlanText, "status: draft", "status: approved", 1)
			planner := h.NewSession("plan")
			wantStop(t, h.Prompt(planner.SessionID, "rewrite plans/x.plan"), "end_turn")
			checkPlannerRefused(h, approved)

			wantStop(t, h.Prompt(builder.SessionID, "build"), "end_turn")
			ticked := strings.Replace(approved, "- [ ] one", "- [x] one", 1)
			if got := currentText(h, lockedPlan); got != ticked {
				t.Fatalf("plan after the tick =\n%s\nwant\n%s", got, ticked)
			}

			tc.change(h, ticked)
			n := len(planEntries(h, h.Editor.Messages(), builder.SessionID))
			wantStop(t, h.Prompt(builder.SessionID, "go on"), "end_turn")
			// The builder's request saw the change; the user got a plan update
			// with the new step (for a checkout, from that check alone).
			awaitPlanUpdate(h, builder.SessionID, n, lockedPlan+": [x] one | [>] two | [ ] three (user)")
		})
	}
}

// editorChange is the user adding a step in the editor (an unsaved buffer).
func editorChange(h *lsptest.Env, text string) {
	h.T.Helper()
	if err := h.Editor.Open(h.Ctx, lockedPlan, text); err != nil {
		h.T.Fatal(err)
	}
	end := workspace.Position{Line: uint32(strings.Count(text, "\n"))}
	if err := h.Editor.Change(h.Ctx, lockedPlan, workspace.TextEdit{Range: workspace.Range{Start: end, End: end}, NewText: "- [ ] three (user)\n"}); err != nil {
		h.T.Fatal(err)
	}
}

// currentText is a file as the user sees it: the editor's buffer if open,
// else the disk.
func currentText(h *lsptest.Env, rel string) string {
	if text, ok := h.Editor.Buffer(rel); ok {
		return text
	}
	return h.Read(rel)
}

// TestPlanLockSurvivesRestart: the lock comes from the session files, so a
// planner after a restart is still refused, and the builder (loaded from
// disk) still writes the plan, with no "changed since approval".
func TestPlanLockSurvivesRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h := lsptest.Start(t, lsptest.Setup{Dir: dir, Files: map[string]string{lockedPlan: lockedPlanText, "plans/other.plan": "other\n"}})
	var builder agentproto.Session
	if err := command(h, "agentls.buildPlan", map[string]any{"path": lockedPlan}, &builder); err != nil {
		t.Fatalf("buildPlan: %v", err)
	}
	approved := strings.Replace(lockedPlanText, "status: draft", "status: approved", 1)
	if got := h.Read(lockedPlan); got != approved {
		t.Fatalf("plan after buildPlan =\n%s", got)
	}
	if err := h.Editor.Shutdown(h.Ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}

	h2 := lsptest.Start(t, lsptest.Setup{Dir: dir, Script: `
name: plan-lock-restart
steps:` + plannerAttempts + `
  - tool_calls:
      - {id: tick, name: plan_edit, args: {path: plans/x.plan, old_string: "- [ ] one", new_string: "- [x] one"}}
    expect:
      system_contains: ["## APPROVED EXECUTION PLAN", "Source: plans/x.plan\n"]
      system_not_contains: ["changed since approval"]
  - text: ticked
    expect:
      tool_result_contains: {tick: ['"success":true']}
`})
	planner := h2.NewSession("plan")
	wantStop(t, h2.Prompt(planner.SessionID, "rewrite plans/x.plan"), "end_turn")
	checkPlannerRefused(h2, approved)
	wantStop(t, h2.Prompt(builder.SessionID, "build"), "end_turn")
	if got := currentText(h2, lockedPlan); !strings.Contains(got, "- [x] one") {
		t.Fatalf("the builder could not tick after the restart:\n%s", got)
	}
}
