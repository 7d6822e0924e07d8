package server_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestStaleApproveLensDoesNotApproveAnotherPlan: a plain editor (Neovim 0.7,
// Sublime, kak-lsp: no workspace/codeLens/refresh) keeps the "Approve &
// Build" lens it got above plans/a.plan while a.plan awaited approval. The
// user rejects a.plan; the planner writes plans/b.plan (never shown beside a
// lens: its approval message was dismissed) and asks to approve it. A click
// on the lens still drawn above a.plan — the plan the user read — must not
// approve b.plan: the lens names a.plan's document, not "whatever this
// session awaits now". Today the lens carries only the session id, and
// agentls.approvePlan approves the session's current approval, b.plan.
func TestStaleApproveLensDoesNotApproveAnotherPlan(t *testing.T) {
	t.Parallel()
	h, s := twoPlansAwaiting(t, "stale lens")
	ls := lensesOf(h, "plans/a.plan")
	if len(ls) == 0 || ls[0].Command.Command != "agentls.approvePlan" {
		t.Fatalf("lenses of plans/a.plan while it awaits approval = %q", renderLenses(ls))
	}
	stale := ls[0] // what the editor keeps drawing above plans/a.plan

	var info agentproto.Session
	if err := command(h, "agentls.rejectPlan", map[string]any{"sessionId": s.SessionID, "reason": "not this one"}, &info); err != nil {
		t.Fatalf("rejectPlan: %v", err)
	}
	h.Await(lsptest.MethodCount("window/showMessageRequest", 2)) // b.plan awaits approval now
	if r := h.MessageRequests()[1]; !strings.Contains(r.Message, "plans/b.plan") {
		t.Fatalf("second approval message does not name plans/b.plan:\n%s", r.Message)
	}

	var res agentproto.ApprovePlanResult
	err := runLens(h, stale, &res)
	if err == nil && res.Session != nil && res.Session.Mode == agentproto.ModeBuild {
		pf := ""
		if res.Session.PlanFile != nil {
			pf = *res.Session.PlanFile
		}
		t.Fatalf("the stale Approve & Build lens of plans/a.plan (%s %s) approved %s and switched the session to build mode; "+
			"it must be refused (the plan it was drawn above no longer awaits approval)", stale.Command.Command, stale.Command.Arguments, pf)
	}
	if got := h.Editor.Mode(s.SessionID); got != "plan" {
		t.Fatalf("mode after the stale lens = %q, want plan", got)
	}
	if err := command(h, "agentls.cancel", map[string]any{"sessionId": s.SessionID}, nil); err != nil {
		t.Fatalf("cancel: %v", err)
	}
}

// TestResolvePlanBoundToThePlanShown: agent/resolvePlan with a planFile
// decides only when the session awaits that plan's approval now. A client
// that showed plans/a.plan and answers after the session moved on to
// plans/b.plan is refused, and nothing is decided; the same call naming
// plans/b.plan approves it.
func TestResolvePlanBoundToThePlanShown(t *testing.T) {
	t.Parallel()
	h, s := twoPlansAwaiting(t, "bound decision")
	var info agentproto.Session
	if err := command(h, "agentls.rejectPlan", map[string]any{"sessionId": s.SessionID, "reason": "not this one", "planFile": "plans/a.plan"}, &info); err != nil {
		t.Fatalf("rejectPlan of the plan awaited: %v", err)
	}
	h.Await(lsptest.MethodCount("window/showMessageRequest", 2)) // b.plan awaits approval now
	h.ReadAsAPerson()                                            // a person reads the plan before deciding

	for _, tc := range []struct {
		plan   string
		refuse bool
	}{
		{"plans/a.plan", true},
		{"plans/b.plan", false},
	} {
		err := h.Editor.Call(h.Ctx, "agent/resolvePlan", map[string]any{"sessionId": s.SessionID, "decision": "approve", "planFile": tc.plan}, &info)
		if tc.refuse {
			if err == nil || !strings.Contains(err.Error(), "does not await approval") {
				t.Fatalf("resolvePlan naming %s while plans/b.plan awaits: err = %v, want a refusal", tc.plan, err)
			}
			if got := h.Editor.Mode(s.SessionID); got != "plan" {
				t.Fatalf("mode after a refused decision = %q, want plan", got)
			}
			continue
		}
		if err != nil {
			t.Fatalf("resolvePlan naming %s: %v", tc.plan, err)
		}
		if info.Mode != agentproto.ModeBuild {
			t.Fatalf("mode after approving %s = %q, want build", tc.plan, info.Mode)
		}
	}
}

// twoPlansAwaiting starts a plain editor that dismisses every approval
// message (the approvals stay pending) on the script name: the planner
// writes plans/a.plan and asks to approve it, then, once the user rejects
// it, writes plans/b.plan and asks again. It prompts a plan session and
// returns when a.plan awaits approval.
func twoPlansAwaiting(t *testing.T, name string) (*lsptest.Env, agentproto.Session) {
	t.Helper()
	h := lsptest.Start(t, lsptest.Setup{
		Caps: lsptest.PlainCaps(),
		Script: `
name: ` + name + `
steps:
  - tool_calls:
      - {id: wa, name: plan_write, args: {title: Harmless, path: plans/a.plan, content: "## Steps\n- [ ] tidy the README\n"}}
  - tool_calls:
      - {id: xa, name: exit_plan_mode, args: {plan_file_path: plans/a.plan}}
  - tool_calls:
      - {id: wb, name: plan_write, args: {title: Other, path: plans/b.plan, content: "## Steps\n- [ ] delete the tests folder\n"}}
  - tool_calls:
      - {id: xb, name: exit_plan_mode, args: {plan_file_path: plans/b.plan}}
  - text: building b
`,
		Handlers: lspclient.Handlers{ShowMessageRequest: func(json.RawMessage) any { return nil }},
	})
	s := h.NewSession("plan")
	_ = h.PromptAsync(s.SessionID, "plan something")
	h.Await(lsptest.MethodCount("window/showMessageRequest", 1))
	return h, s
}
