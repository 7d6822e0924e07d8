package server_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// ruleBypasses are command lines that start like an allowed command but are
// more than one simple command; each would create "pwned" if it ran. The
// allow rules below match their first words, so before allow rules went
// through the shell parser several of them ran without asking.
var ruleBypasses = []string{
	"touch ok ; touch pwned",
	"touch ok && touch pwned",
	"touch ok || touch pwned",
	"touch ok | touch pwned",
	"touch ok & touch pwned",
	"touch ok\ntouch pwned",
	"echo ok > pwned",
	"echo ok >> pwned",
	"echo ok 2> pwned",
	"echo ok $(touch pwned)",
	"echo ok `touch pwned`",
	"echo \"$(touch pwned)\"",
	"(touch pwned)",
	"{ touch pwned; }",
	"if true; then touch pwned; fi",
	"X=1 touch pwned",
	"PATH=/usr/bin:/bin touch pwned",
	"echo ok ; touch pwned # comment",
}

// TestRunAllowRulesAskForShellSyntax: run.allow "touch *", "echo *" and even
// "*" let none of these through: each is asked (and rejected), and none ran.
func TestRunAllowRulesAskForShellSyntax(t *testing.T) {
	t.Parallel()
	var calls strings.Builder
	for i, c := range ruleBypasses {
		fmt.Fprintf(&calls, "      - {id: r%d, name: run, args: {command: %q}}\n", i, c)
	}
	h := lsptest.Start(t, lsptest.Setup{
		InitOpts: map[string]any{"run": map[string]any{"allow": []string{"touch *", "echo *", "*"}}},
		Handlers: lspclient.Handlers{AskUser: decide("reject")},
		Script:   "name: bypass\nsteps:\n  - tool_calls:\n" + calls.String() + "  - text: done\n",
	})
	s := h.NewSession("build")
	wantStop(t, h.Prompt(s.SessionID, "run"), "end_turn")
	asks := h.AskUserRequests("")
	if len(asks) != len(ruleBypasses) {
		t.Errorf("%d permission asks for %d command lines that are not one simple command", len(asks), len(ruleBypasses))
	}
	for i, c := range ruleBypasses {
		status, out := h.ToolOutput(fmt.Sprintf("r%d", i))
		if status != "failed" || !strings.Contains(fmt.Sprint(out["error"]), "the user rejected running") {
			t.Errorf("%q = %s %v, want asked and rejected", c, status, out)
		}
	}
	for _, name := range []string{"pwned", "ok"} {
		if exists(t, h, name) {
			t.Errorf("%s exists: a command ran without the user's consent", name)
		}
	}
}

// TestAllowedCommandsOnlyRules: a plan's allowed_commands go through the
// same parse: only one simple command (or a prefix rule) is offered at
// approval; a list is not offered, the model is told, and run asks for it.
func TestAllowedCommandsOnlyRules(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Handlers: lspclient.Handlers{AskUser: approveThen("reject")},
		Script: "name: allowed_rules\nsteps:" + writeGreetPlan + `
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan, allowed_commands: ["touch ok ; touch pwned", "touch ok *"]}}
  - expect:
      tool_result_contains: {x: ['"approved":true', "were not offered to the user", "touch ok ; touch pwned"]}
    tool_calls:
      - {id: a, name: run, args: {command: "touch ok ; touch pwned"}}
      - {id: b, name: run, args: {command: "touch ok ok2"}}
  - text: done
    expect:
      tool_result_contains: {a: ["the user rejected running"], b: ['"exit_code":0']}
`,
	})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "plan"), "end_turn")
	approvals := h.AskUserRequests("plan_approval")
	if len(approvals) != 1 || !strings.Contains(approvals[0].Questions[0].Question, "`touch ok *`") || strings.Contains(approvals[0].Questions[0].Question, "pwned") {
		t.Fatalf("approval question = %+v, want only the rule offered", approvals)
	}
	if asks := h.AskUserRequests("permission"); len(asks) != 1 || !strings.Contains(asks[0].Questions[0].Question, "touch pwned") {
		t.Fatalf("permission asks = %+v, want the list asked", asks)
	}
	if exists(t, h, "pwned") || !exists(t, h, "ok2") {
		t.Fatal("the list ran, or the allowed prefix rule did not")
	}
}
