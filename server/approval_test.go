package server_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
	"github.com/agentls/agentls/workspace"
)

// This file proves plan approval (PROTOCOL.md §5) end to end: the dialog
// through agent/askUser or window/showMessageRequest, agent/resolvePlan, the
// timeout, stale and user-edited plans, enter_plan_mode, and the commands a
// plan allows.

const greetPlan = "plans/greet.plan"

// writeGreetPlan is the script step that writes the plan (with a non-ASCII
// character, so that bytes and characters differ).
const writeGreetPlan = `
  - tool_calls:
      - {id: w, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: "# Goal\nSay héllo.\n\n## Steps\n- [ ] Write hello.txt\n"}}
`

// exitGreetPlan is the script step that presents it.
const exitGreetPlan = `
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
`

func approvalScript(rest string) string {
	return "name: approval\nsteps:" + writeGreetPlan + exitGreetPlan + rest
}

// followUp is the canonical rejection text the model reads.
func followUp(reason string) string {
	return "Plan rejected by the user. Reason: " + reason + ". Do not call exit_plan_mode again with the same plan. " +
		"Adjust the plan based on the rejection reason and present a revised plan."
}

// planStatus is the status in a plan's frontmatter.
func planStatus(t *testing.T, text string) string {
	t.Helper()
	plan, err := workspace.ParsePlan(text)
	if err != nil || plan.Meta == nil {
		t.Fatalf("plan does not parse (%v):\n%s", err, text)
	}
	return string(plan.Meta.Status)
}

// rejectedScript is what the model sees after a rejection with reason.
func rejectedScript(reason string) string {
	return approvalScript(`
  - text: revising
    expect:
      tool_result_contains: {x: ` + yamlList(`"success":false`, followUp(reason)) + `}
      system_contains: ["You are in PLAN mode"]
      system_not_contains: ["APPROVED EXECUTION PLAN"]
`)
}

const approvedScript = `
  - text: building
    expect:
      tool_result_contains: {x: ['"success":true', '"exited_plan_mode":true', '"approved":true', '"plan_file":"plans/greet.plan"', '"approval_required":true', '"plan_id":"']}
      system_contains: ["You are in BUILD mode", "## APPROVED EXECUTION PLAN", "Source: plans/greet.plan", "Write hello.txt", "status: approved"]
      system_not_contains: ["changed since approval"]
`

func TestApprovalDialog(t *testing.T) {
	t.Parallel()
	answers := func(a map[string]any) any { return map[string]any{"answers": a} }
	tests := []struct {
		name    string
		reply   any
		approve bool
		reason  string
	}{
		{"approve", answers(map[string]any{"approve": true}), true, ""},
		{"reject with feedback", answers(map[string]any{"approve": false, "feedback": "  also say goodbye "}), false, "also say goodbye"},
		{"keep planning", answers(map[string]any{"approve": false}), false, "the user chose to keep planning"},
		{"keep planning blank feedback", answers(map[string]any{"approve": false, "feedback": "   "}), false, "the user chose to keep planning"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			script := approvalScript(approvedScript)
			if !tc.approve {
				script = rejectedScript(tc.reason)
			}
			dir := t.TempDir()
			planAtAsk := make(chan string, 1) // the plan as it was when the approval was asked
			h := lsptest.Start(t, lsptest.Setup{
				Dir:    dir,
				Script: script,
				Handlers: lspclient.Handlers{AskUser: func(json.RawMessage) any {
					b, _ := os.ReadFile(filepath.Join(dir, greetPlan))
					planAtAsk <- string(b)
					return tc.reply
				}},
			})
			s := h.NewSession("plan")
			wantStop(t, h.Prompt(s.SessionID, "plan a greeting"), "end_turn")
			if h.Model.Remaining() != 0 {
				t.Fatalf("%d script steps left", h.Model.Remaining())
			}

			// The plan was shown and the approval question asked, each
			// once (side by side: the question does not wait for the
			// document to open).
			var order []string
			for _, m := range h.Editor.Messages() {
				if m.Method == "window/showDocument" || m.Method == "agent/askUser" {
					order = append(order, m.Method)
				}
			}
			if slices.Sort(order); strings.Join(order, ",") != "agent/askUser,window/showDocument" {
				t.Fatalf("requests = %v, want one showDocument and one askUser", order)
			}
			// Opened beside the question without takeFocus: it must not
			// take the focus from the question (eglot 30 reads false as true).
			var doc map[string]any
			_ = json.Unmarshal(h.Messages("window/showDocument")[0], &doc)
			if _, focus := doc["takeFocus"]; doc["uri"] != h.Editor.URI(greetPlan) || focus {
				t.Fatalf("showDocument = %+v", doc)
			}
			asks := h.AskUserRequests("plan_approval")
			if len(asks) != 1 {
				t.Fatalf("%d plan_approval asks", len(asks))
			}
			a := asks[0]
			if len(a.Questions) != 2 || a.Questions[0].Name != "approve" || string(a.Questions[0].Schema) != `{"type":"boolean"}` ||
				len(a.Questions[0].Buttons) != 2 || a.Questions[0].Buttons[0].Label != "Accept & Build" || a.Questions[0].Buttons[0].Value != true ||
				a.Questions[0].Buttons[1].Label != "Keep Planning" || a.Questions[0].Buttons[1].Value != false ||
				a.Questions[1].Name != "feedback" || !a.Questions[1].Optional || !strings.Contains(a.Questions[0].Question, greetPlan) {
				t.Fatalf("approval question = %+v", a)
			}

			status, out := h.ToolOutput("x")
			plan := h.Read(greetPlan)
			lines := h.LogLines()
			if !lsptest.HasLine(lines, "[plan-mode] awaiting approval plan=plans/greet.plan (resolve via agent/resolvePlan)") {
				t.Errorf("no awaiting line in %q", lines)
			}
			atAsk := <-planAtAsk
			if tc.approve {
				res, _ := out["result"].(map[string]any)
				if status != "completed" || res["plan_bytes"] != float64(len(atAsk)) || res["plan_chars"] != float64(utf8.RuneCountInString(atAsk)) ||
					len(atAsk) == utf8.RuneCountInString(atAsk) {
					t.Fatalf("exit_plan_mode = %s %v; the plan was %d bytes, %d chars", status, out, len(atAsk), utf8.RuneCountInString(atAsk))
				}
				if got := h.Editor.Mode(s.SessionID); got != "build" {
					t.Fatalf("mode = %q, want build", got)
				}
				if st := planStatus(t, plan); st != "approved" {
					t.Fatalf("plan status = %q", st)
				}
				var sawTool bool
				for _, mc := range h.ModeChanges() {
					if mc.Mode == "build" && mc.Source == "tool" && mc.PlanFile != nil && *mc.PlanFile == greetPlan {
						sawTool = true
					}
				}
				if !sawTool {
					t.Fatalf("no modeChanged {build, tool, %s} in %v", greetPlan, h.ModeChanges())
				}
				for _, want := range []string{"[plan-mode] approved plan=plans/greet.plan", "[plan-mode] exited — plan: # Goal Say héllo."} {
					if !lsptest.HasLine(lines, want) {
						t.Errorf("no %q in %q", want, lines)
					}
				}
				return
			}
			if status != "failed" || out["error"] != followUp(tc.reason) {
				t.Fatalf("exit_plan_mode = %s %v", status, out)
			}
			if got := h.Editor.Mode(s.SessionID); got != "plan" {
				t.Fatalf("mode = %q, want plan", got)
			}
			if st := planStatus(t, plan); st != "draft" {
				t.Fatalf("plan status = %q after a rejection", st)
			}
			if want := "[plan-mode] rejected plan=plans/greet.plan reason=" + tc.reason; !lsptest.HasLine(lines, want) {
				t.Errorf("no %q in %q", want, lines)
			}
			if lsptest.HasLine(lines, "[plan-mode] approved") {
				t.Errorf("approved line after a rejection: %q", lines)
			}
		})
	}
}

// TestRejectedPlanMustBeRevised: the same plan cannot be presented again
// after a rejection; once revised it can.
func TestRejectedPlanMustBeRevised(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Handlers: lspclient.Handlers{AskUser: replySequence(
			map[string]any{"answers": map[string]any{"approve": false, "feedback": "add a goodbye step"}},
			map[string]any{"answers": map[string]any{"approve": true}},
		)},
		Script: approvalScript(`
  - tool_calls:
      - {id: x2, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
  - expect:
      tool_result_contains: {x2: ['"success":false', "not written or edited in this planning phase (or since the user rejected it)"]}
    tool_calls:
      - {id: e, name: plan_edit, args: {path: plans/greet.plan, old_string: "- [ ] Write hello.txt", new_string: "- [ ] Write hello.txt\n- [ ] Say goodbye"}}
  - tool_calls:
      - {id: x3, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
  - text: building
    expect:
      tool_result_contains: {x3: ['"approved":true']}
      system_contains: ["Say goodbye"]
`),
	})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "plan"), "end_turn")
	if n := len(h.AskUserRequests("plan_approval")); n != 2 {
		t.Fatalf("%d approval asks, want 2 (the stale call is refused before asking)", n)
	}
	if got := h.Editor.Mode(s.SessionID); got != "build" {
		t.Fatalf("mode = %q", got)
	}
}

func TestApprovalWithShowMessageRequest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		props  bool
		reply  any
		reason string // "" approves
	}{
		{"accept", false, map[string]any{"title": "Accept & Build"}, ""},
		{"accept with value", true, map[string]any{"title": "Accept & Build", "value": true}, ""},
		{"keep planning", false, map[string]any{"title": "Keep Planning"}, "the user chose to keep planning"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			script := approvalScript(approvedScript)
			if tc.reason != "" {
				script = rejectedScript(tc.reason)
			}
			h := lsptest.Start(t, lsptest.Setup{
				Caps:     noAskCaps(tc.props),
				Script:   script,
				Handlers: lspclient.Handlers{ShowMessageRequest: func(json.RawMessage) any { return tc.reply }},
			})
			s := h.NewSession("plan")
			wantStop(t, h.Prompt(s.SessionID, "plan"), "end_turn")
			reqs := h.MessageRequests()
			if len(reqs) != 1 {
				t.Fatalf("%d showMessageRequest, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Type != 3 || !strings.Contains(r.Message, greetPlan) || len(r.Actions) != 2 ||
				r.Actions[0]["title"] != "Keep Planning" || r.Actions[1]["title"] != "Accept & Build" {
				t.Fatalf("approval request = %+v", r)
			}
			for i, want := range []bool{false, true} {
				if v, ok := r.Actions[i]["value"]; ok != tc.props || (ok && v != want) {
					t.Fatalf("action %d = %v (additionalPropertiesSupport %v)", i, r.Actions[i], tc.props)
				}
			}
			want := "build"
			if tc.reason != "" {
				want = "plan"
			}
			if got := h.Editor.Mode(s.SessionID); got != want {
				t.Fatalf("mode = %q, want %q", got, want)
			}
		})
	}
}

// resolvePlan calls agent/resolvePlan.
func resolvePlan(h *lsptest.Env, sid, decision, reason string) (agentproto.Session, error) {
	var info agentproto.Session
	params := map[string]any{"sessionId": sid, "decision": decision}
	if reason != "" {
		params["reason"] = reason
	}
	err := h.Editor.Call(h.Ctx, "agent/resolvePlan", params, &info)
	return info, err
}

func TestResolvePlanWhileDialogOpen(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		decision string
		reason   string
		script   string
		wantMode string
	}{
		{"approve", "approve", "", approvalScript(approvedScript), "build"},
		{"reject", "reject", "  split step two ", rejectedScript("split step two"), "plan"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			release := make(chan struct{})
			defer close(release)
			h := lsptest.Start(t, lsptest.Setup{
				Script:   tc.script,
				Handlers: lspclient.Handlers{AskUser: blockingAsk(release, map[string]any{"answers": map[string]any{"approve": true}})},
			})
			s := h.NewSession("plan")
			done := h.PromptRPC(map[string]any{"sessionId": s.SessionID, "text": "plan"})
			h.AwaitInTurn(s.SessionID, lsptest.Received("agent/askUser"))
			// Invalid decisions change nothing: the approval stays pending.
			_, err := resolvePlan(h, s.SessionID, "reject", "   ")
			wantInvalidParams(t, err, "a rejection needs a non-empty reason")
			_, err = resolvePlan(h, s.SessionID, "maybe", "")
			wantInvalidParams(t, err, `decision must be "approve" or "reject"`)
			_, err = resolvePlan(h, "no-such-session", "approve", "")
			wantInvalidParams(t, err, "unknown session")

			h.ReadAsAPerson() // a person reads the plan before approving it
			info, err := resolvePlan(h, s.SessionID, tc.decision, tc.reason)
			if err != nil {
				t.Fatalf("resolvePlan: %v", err)
			}
			if info.SessionID != s.SessionID || string(info.Mode) != tc.wantMode || info.PlanFile == nil || *info.PlanFile != greetPlan {
				t.Fatalf("resolvePlan = %+v, want mode %s with %s", info, tc.wantMode, greetPlan)
			}
			h.Await(lsptest.Received("$/cancelRequest")) // the dialog was withdrawn
			out := <-done
			if out.Err != nil {
				t.Fatal(out.Err)
			}
			wantStop(t, out.Result, "end_turn")
			_, err = resolvePlan(h, s.SessionID, "approve", "")
			wantInvalidParams(t, err, "no plan is awaiting approval")
			if got := h.Editor.Mode(s.SessionID); got != tc.wantMode {
				t.Fatalf("mode = %q", got)
			}
			if tc.decision == "approve" {
				last := h.ModeChanges()[len(h.ModeChanges())-1]
				if last.Mode != "build" || last.Source != "user" {
					t.Fatalf("modeChanged after agent/resolvePlan = %v, want build from user", last)
				}
				if st := planStatus(t, h.Read(greetPlan)); st != "approved" {
					t.Fatalf("plan status %q", st)
				}
			}
		})
	}
}

// TestResolvePlanWithoutDialog: an approval the editor could not show (its
// dialog failed) waits for agent/resolvePlan, e.g. from a code lens.
func TestResolvePlanWithoutDialog(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Script: approvalScript(approvedScript),
		// Three invalid answers: the dialog fails, the approval stays pending.
		Handlers: lspclient.Handlers{AskUser: replySequence(map[string]any{"answers": map[string]any{"approve": "yes"}})},
	})
	s := h.NewSession("plan")
	done := h.PromptRPC(map[string]any{"sessionId": s.SessionID, "text": "plan"})
	h.AwaitInTurn(s.SessionID, lsptest.MethodCount("agent/askUser", 3))
	asks := h.AskUserRequests("plan_approval")
	if len(asks) != 3 || !strings.Contains(asks[2].Errors["approve"], "boolean") {
		t.Fatalf("asks = %+v", asks)
	}
	if _, err := resolvePlan(h, s.SessionID, "approve", ""); err != nil {
		t.Fatal(err)
	}
	out := <-done
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	wantStop(t, out.Result, "end_turn")
}

func TestApprovalTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	h := lsptest.Start(t, lsptest.Setup{
		InitOpts: map[string]any{"plan_mode": map[string]any{"approval_timeout_secs": 1}},
		Script:   approvalScript(""),
		Handlers: lspclient.Handlers{AskUser: blockingAsk(release, map[string]any{"answers": map[string]any{"approve": true}})},
	})
	s := h.NewSession("plan")
	r := h.Prompt(s.SessionID, "plan")
	if r.StopReason != "error" || r.Error == nil || r.Error.Message != "approval timed out" {
		t.Fatalf("prompt = %+v (%v), want error \"approval timed out\"", r, r.Error)
	}
	h.Await(lsptest.Received("$/cancelRequest"))
	if status, out := h.ToolOutput("x"); status != "failed" || out["error"] != "approval timed out" {
		t.Fatalf("exit_plan_mode = %s %v", status, out)
	}
	if got := h.Editor.Mode(s.SessionID); got != "plan" {
		t.Fatalf("mode = %q", got)
	}
	if !lsptest.HasLine(h.LogLines(), "[plan-mode] approval timed out plan=plans/greet.plan") {
		t.Fatalf("no timeout line in %q", h.LogLines())
	}
	_, err := resolvePlan(h, s.SessionID, "approve", "")
	wantInvalidParams(t, err, "no plan is awaiting approval")
	var loaded agentproto.Session
	if err := h.Editor.Call(h.Ctx, "agent/loadSession", map[string]any{"sessionId": s.SessionID}, &loaded); err != nil {
		t.Fatal(err)
	}
	if loaded.Mode != "plan" {
		t.Fatalf("loaded mode = %q", loaded.Mode)
	}
}

func TestCancelWithdrawsApproval(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	h := lsptest.Start(t, lsptest.Setup{
		Script:   approvalScript(""),
		Handlers: lspclient.Handlers{AskUser: blockingAsk(release, map[string]any{"answers": map[string]any{"approve": true}})},
	})
	s := h.NewSession("plan")
	done := h.PromptRPC(map[string]any{"sessionId": s.SessionID, "text": "plan"})
	cancelWhileAsked(h, t, s.SessionID, done, "agent/askUser")
	if status, res := h.ToolOutput("x"); status != "failed" || !strings.Contains(fmt.Sprint(res["error"]), "cancelled by the user") {
		t.Fatalf("exit_plan_mode = %s %v", status, res)
	}
	_, err := resolvePlan(h, s.SessionID, "approve", "")
	wantInvalidParams(t, err, "no plan is awaiting approval")
	if got := h.Editor.Mode(s.SessionID); got != "plan" {
		t.Fatalf("mode = %q", got)
	}
}

func TestApprovalNotRequired(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		InitOpts: map[string]any{"plan_mode": map[string]any{"require_approval": false}},
		Script: approvalScript(`
  - text: building
    expect:
      tool_result_contains: {x: ['"approved":true', '"approval_required":false']}
      system_contains: ["You are in BUILD mode"]
`),
	})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "plan"), "end_turn")
	if n := len(h.Messages("agent/askUser")) + len(h.Messages("window/showDocument")); n != 0 {
		t.Fatalf("%d approval requests with require_approval false", n)
	}
}

func TestExitPlanModeRefusesBadPlans(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Handlers: lspclient.Handlers{AskUser: approveAll},
		Files: map[string]string{
			"plans/old.plan": "---\ntitle: Old\nstatus: draft\n---\n# Goal\nOld.\n\n## Steps\n- [ ] one\n",
			"notes.txt":      "not a plan\n",
		},
		Script: `
name: bad_plans
steps:
  - tool_calls:
      - {id: stale, name: exit_plan_mode, args: {plan_file_path: plans/old.plan}}
      - {id: missing, name: exit_plan_mode, args: {plan_file_path: plans/none.plan}}
      - {id: notplan, name: exit_plan_mode, args: {plan_file_path: notes.txt}}
      - {id: outside, name: exit_plan_mode, args: {plan_file_path: ../elsewhere.plan}}
      - {id: empty, name: exit_plan_mode, args: {plan_file_path: " "}}
  - text: ok
    expect:
      tool_result_contains:
        stale: ['"success":false', "plans/old.plan was not written or edited in this planning phase"]
        missing: ['"success":false', "is not an existing .plan file"]
        notplan: ['"success":false', "is not an existing .plan file"]
        outside: ['"success":false', "plan_file_path"]
        empty: ['"success":false', "plan_file_path is required"]
`,
	})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "present the old plan"), "end_turn")
	if n := len(h.Messages("agent/askUser")) + len(h.Messages("window/showDocument")); n != 0 {
		t.Fatalf("%d approval requests for refused plans", n)
	}
	if got := h.Editor.Mode(s.SessionID); got != "plan" {
		t.Fatalf("mode = %q", got)
	}
}

// TestEditedPlanReachesBuilder: the user changes the plan while its approval
// is asked; the builder gets the user's text, marked "changed since approval".
func TestEditedPlanReachesBuilder(t *testing.T) {
	t.Parallel()
	const userStep = "- [ ] User step: also wave\n"
	script := approvalScript(`
  - text: building
    expect:
      tool_result_contains: {x: ['"approved":true']}
      system_contains: ["## APPROVED EXECUTION PLAN", "(changed since approval", "What changed since approval:", "+- [ ] User step: also wave", "Write hello.txt"]
`)
	tests := []struct {
		name     string
		initOpts map[string]any
		edit     func(h *lsptest.Env, text string) error
		current  func(h *lsptest.Env) string
	}{
		{"unsaved buffer", nil, func(h *lsptest.Env, text string) error {
			if err := h.Editor.Open(h.Ctx, greetPlan, text); err != nil {
				return err
			}
			end := workspace.Position{Line: uint32(strings.Count(text, "\n"))}
			return h.Editor.Change(h.Ctx, greetPlan, workspace.TextEdit{Range: workspace.Range{Start: end, End: end}, NewText: userStep})
		}, func(h *lsptest.Env) string {
			text, _ := h.Editor.Buffer(greetPlan)
			return text
		}},
		{"on disk", map[string]any{"edits": "disk"}, func(h *lsptest.Env, text string) error {
			return os.WriteFile(filepath.Join(h.Dir, greetPlan), []byte(text+userStep), 0o644)
		}, func(h *lsptest.Env) string { return h.Read(greetPlan) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hc := make(chan *lsptest.Env, 1)
			editErr := make(chan error, 1)
			h := lsptest.Start(t, lsptest.Setup{
				InitOpts: tc.initOpts,
				Script:   script,
				Handlers: lspclient.Handlers{AskUser: func(json.RawMessage) any {
					h := <-hc
					b, err := os.ReadFile(filepath.Join(h.Dir, greetPlan))
					if err == nil {
						err = tc.edit(h, string(b))
					}
					editErr <- err
					return map[string]any{"answers": map[string]any{"approve": true}}
				}},
			})
			hc <- h
			s := h.NewSession("plan")
			wantStop(t, h.Prompt(s.SessionID, "plan"), "end_turn")
			if err := <-editErr; err != nil {
				t.Fatalf("user edit: %v", err)
			}
			text := tc.current(h)
			if !strings.Contains(text, "User step: also wave") || planStatus(t, text) != "approved" {
				t.Fatalf("plan after approval:\n%s", text)
			}
		})
	}
}

func TestEnterPlanModeFromBuild(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{Script: `
name: enter
steps:
  - tool_calls:
      - {id: x0, name: exit_plan_mode, args: {plan_file_path: plans/any.plan}}
      - {id: e1, name: enter_plan_mode, args: {reason: "risky refactor"}}
  - expect:
      system_contains: ["You are in PLAN mode", "changed from BUILD to PLAN"]
      tool_result_contains:
        x0: ['"success":false', "not in plan mode"]
        e1: ['"entered_plan_mode":true', '"already_in_plan_mode":false', '"reason":"risky refactor"', '"instructions":"You are in PLAN mode']
    tool_calls:
      - {id: e2, name: enter_plan_mode, args: {}}
  - text: planning
    expect:
      tool_result_contains: {e2: ['"entered_plan_mode":true', '"already_in_plan_mode":true', '"reason":""']}
      system_not_contains: ["changed from"]
`})
	s := h.NewSession("build")
	before := time.Now().UTC().Truncate(time.Second)
	wantStop(t, h.Prompt(s.SessionID, "refactor everything"), "end_turn")
	_, out := h.ToolOutput("e1")
	res, _ := out["result"].(map[string]any)
	at, err := time.Parse(time.RFC3339, fmt.Sprint(res["entered_at"]))
	if err != nil || at.Before(before) {
		t.Fatalf("entered_at = %v (%v)", res["entered_at"], err)
	}
	if got := h.Editor.Mode(s.SessionID); got != "plan" {
		t.Fatalf("mode = %q", got)
	}
	var entered []string
	for _, l := range h.LogLines() {
		if strings.HasPrefix(l, "[plan-mode] entered at ") {
			entered = append(entered, l)
		}
	}
	if want := "[plan-mode] entered at " + res["entered_at"].(string) + " — reason: model: risky refactor"; len(entered) != 1 || entered[0] != want {
		t.Fatalf("entered lines = %q, want [%q]", entered, want)
	}
	last := h.ModeChanges()[len(h.ModeChanges())-1]
	if last.Mode != "plan" || last.Source != "tool" {
		t.Fatalf("modeChanged = %v", last)
	}
}

// TestReenteredPlanModeStartsANewPhase: a plan approved in an earlier phase
// is stale after enter_plan_mode until it is written again.
func TestReenteredPlanModeStartsANewPhase(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Handlers: lspclient.Handlers{AskUser: approveAll},
		Script: approvalScript(`
  - tool_calls:
      - {id: e, name: enter_plan_mode, args: {reason: more to do}}
  - tool_calls:
      - {id: x2, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
  - text: replanning
    expect:
      tool_result_contains: {x2: ['"success":false', "not written or edited in this planning phase"]}
      system_contains: ["You are in PLAN mode"]
`),
	})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "plan"), "end_turn")
	if n := len(h.AskUserRequests("plan_approval")); n != 1 {
		t.Fatalf("%d approval asks, want 1", n)
	}
	if !lsptest.HasLine(h.LogLines(), "[plan-mode] entered at ") || h.Editor.Mode(s.SessionID) != "plan" {
		t.Fatalf("mode %q, lines %q", h.Editor.Mode(s.SessionID), h.LogLines())
	}
}

// TestAllowedCommands: commands allowed with the approved plan run without
// asking; others are still asked.
func TestAllowedCommands(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Handlers: lspclient.Handlers{AskUser: approveThen("run")},
		Script: "name: allowed\nsteps:" + writeGreetPlan + `
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan, allowed_commands: ["echo allowed", "  "]}}
  - expect:
      tool_result_contains: {x: ['"approved":true']}
    tool_calls:
      - {id: r1, name: run, args: {command: "echo allowed"}}
  - expect:
      tool_result_contains: {r1: ['"exit_code":0', 'allowed\n']}
    tool_calls:
      - {id: r2, name: run, args: {command: "echo other"}}
  - text: done
    expect:
      tool_result_contains: {r2: ['"exit_code":0', 'other\n']}
`,
	})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "plan"), "end_turn")
	approvals := h.AskUserRequests("plan_approval")
	if len(approvals) != 1 || !strings.Contains(approvals[0].Questions[0].Question, "`echo allowed`") {
		t.Fatalf("approval question does not show the allowed command: %+v", approvals)
	}
	perms := h.AskUserRequests("permission")
	if len(perms) != 1 || !strings.Contains(perms[0].Questions[0].Question, "`echo other`") {
		t.Fatalf("permission asks = %+v, want one for echo other", perms)
	}
}

// TestAskUserNeverChangesMode: answering "yes" to a question that looks like
// an approval is only an answer.
func TestAskUserNeverChangesMode(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Handlers: lspclient.Handlers{AskUser: replySequence(map[string]any{"answers": map[string]any{"approve": true}})},
		Script: "name: lookalike\nsteps:" + writeGreetPlan + `
  - tool_calls:
      - id: q
        name: ask_user
        args:
          questions:
            - name: approve
              question: Accept plans/greet.plan and build?
              schema: {type: boolean}
              buttons: [{label: "Accept & Build", value: true}, {label: "Keep Planning", value: false}]
  - text: still planning
    expect:
      tool_result_contains: {q: ['"status":"answered"', '"approve":true']}
      system_contains: ["You are in PLAN mode"]
      system_not_contains: ["APPROVED EXECUTION PLAN", "changed from"]
`,
	})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "plan"), "end_turn")
	if got := h.Editor.Mode(s.SessionID); got != "plan" {
		t.Fatalf("mode = %q", got)
	}
	if n := len(h.ModeChanges()); n != 1 {
		t.Fatalf("%d modeChanged, want only newSession's", n)
	}
	if st := planStatus(t, h.Read(greetPlan)); st != "draft" {
		t.Fatalf("plan status = %q", st)
	}
	if lsptest.HasLine(h.LogLines(), "[plan-mode] approved") {
		t.Fatal("ask_user approved a plan")
	}
}

// TestSetModeBuildApprovesPendingPlan: the user's switch to build while the
// approval dialog is open approves the plan (and withdraws the dialog).
func TestSetModeBuildApprovesPendingPlan(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	h := lsptest.Start(t, lsptest.Setup{
		Script:   approvalScript(approvedScript),
		Handlers: lspclient.Handlers{AskUser: blockingAsk(release, map[string]any{"dismissed": true})},
	})
	s := h.NewSession("plan")
	done := h.PromptRPC(map[string]any{"sessionId": s.SessionID, "text": "plan"})
	h.AwaitInTurn(s.SessionID, lsptest.Received("agent/askUser"))
	var info agentproto.Session
	h.ReadAsAPerson() // a person reads the plan before approving it
	if err := h.Editor.Call(h.Ctx, "agent/setMode", map[string]any{"sessionId": s.SessionID, "mode": "build"}, &info); err != nil {
		t.Fatal(err)
	}
	if info.Mode != "build" || info.PlanFile == nil || *info.PlanFile != greetPlan {
		t.Fatalf("setMode = %+v", info)
	}
	h.Await(lsptest.Received("$/cancelRequest"))
	out := <-done
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	wantStop(t, out.Result, "end_turn")
	builds := 0
	for _, mc := range h.ModeChanges() {
		if mc.Mode == "build" {
			builds++
			if mc.Source != "user" {
				t.Fatalf("modeChanged = %v, want source user", mc)
			}
		}
	}
	if builds != 1 {
		t.Fatalf("%d modeChanged to build, want 1", builds)
	}
	if st := planStatus(t, h.Read(greetPlan)); st != "approved" {
		t.Fatalf("plan status %q", st)
	}
	if !lsptest.HasLine(h.LogLines(), "[plan-mode] approved plan=plans/greet.plan") {
		t.Fatalf("no approved line in %q", h.LogLines())
	}
}
