package server_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// argAttacks are calls that the rules "git diff *", "go test *", "tar *"
// and "touch *" let through before allow rules read arguments: each wrote
// or ran something the rule does not name. Now each is asked (and the user
// rejects it).
var argAttacks = []struct {
	id, command, cwd string
	alwaysOffered    bool
	questionHas      string
}{
	{"diff", "git diff --output=pwned-diff", "", false, "`--output=pwned-diff` is --output"},
	{"exec", "go test -exec=./pwn.sh ./...", "", false, "`-exec=./pwn.sh` is -exec"},
	{"sub", "touch pwned-sub", "sub", false, "it runs in sub"},
	{"glob1", "tar cf b.tar *", "", false, "unquoted glob"},
	{"glob2", "tar cf b.tar *", "", false, "unquoted glob"},
	{"out", "touch ../pwned-out", "", false, "outside the workspace"},
}

// TestAllowRulesReadArguments: under prefix rules, an option the rule does
// not name (--output, -exec), another cwd, and an unquoted glob are asked
// (without "Always allow" for the glob, so a file named
// `--checkpoint-action=exec=sh pwn.sh` never runs unasked); a plain
// operand still runs unasked.
func TestAllowRulesReadArguments(t *testing.T) {
	t.Parallel()
	var calls strings.Builder
	for _, a := range argAttacks {
		fmt.Fprintf(&calls, "      - {id: %s, name: run, args: {command: %q, cwd: %q}}\n", a.id, a.command, a.cwd)
	}
	calls.WriteString("      - {id: ok, name: run, args: {command: \"touch ok\"}}\n")
	var mu sync.Mutex
	asked := map[string]lsptest.AskUser{}
	h := lsptest.Start(t, lsptest.Setup{
		InitOpts: map[string]any{"run": map[string]any{"allow": []string{"git diff *", "go test *", "tar *", "touch *"}}},
		Files: map[string]string{
			"sub/.keep": "", "pwn.sh": "touch pwned-script\n",
			"--checkpoint-action=exec=sh pwn.sh": "", "--checkpoint=1": "",
		},
		Handlers: lspclient.Handlers{AskUser: func(raw json.RawMessage) any {
			var p lsptest.AskUser
			_ = json.Unmarshal(raw, &p)
			mu.Lock()
			asked[p.Questions[0].Question] = p
			mu.Unlock()
			return map[string]any{"answers": map[string]any{"decision": option("reject")}}
		}},
		Script: "name: args\nsteps:\n  - tool_calls:\n" + calls.String() + "  - text: done\n",
	})
	s := h.NewSession("build")
	wantStop(t, h.Prompt(s.SessionID, "run"), "end_turn")
	asks := h.AskUserRequests("permission")
	if len(asks) != len(argAttacks) {
		t.Errorf("%d permission questions, want %d (one per attack)", len(asks), len(argAttacks))
	}
	for i, a := range argAttacks {
		status, out := h.ToolOutput(a.id)
		if status != "failed" || !strings.Contains(fmt.Sprint(out["error"]), "the user rejected running") {
			t.Errorf("%s: %s = %s %v, want asked and rejected", a.id, a.command, status, out)
		}
		if i >= len(asks) {
			continue
		}
		q := asks[i].Questions[0]
		if !strings.Contains(q.Question, a.command) || !strings.Contains(q.Question, a.questionHas) {
			t.Errorf("%s: question %q, want it to name %q and say %q", a.id, q.Question, a.command, a.questionHas)
		}
		if offered := strings.Contains(string(q.Schema), `"allow_always"`); offered != a.alwaysOffered {
			t.Errorf("%s: \"Always allow\" offered = %v, want %v (schema %s)", a.id, offered, a.alwaysOffered, q.Schema)
		}
	}
	if status, out := h.ToolOutput("ok"); status != "completed" || !strings.Contains(fmt.Sprint(out), "exit_code") {
		t.Errorf("touch ok under touch * = %s %v, want it run unasked", status, out)
	}
	for _, name := range []string{"pwned-diff", "pwned-sub", "sub/pwned-sub", "b.tar", "pwned-script"} {
		if exists(t, h, name) {
			t.Errorf("%s exists: a command ran without the user's consent", name)
		}
	}
	if !exists(t, h, "ok") {
		t.Error("the allowed command did not run")
	}
}

// TestAllowedCommandsGrantWhatTheyShow: a plan's allowed_commands follow
// run.allow's grammar and may not grant more than they show: a wrapper with
// a wildcard (`sh *`), a danger-table option (`go test -exec=./x *`) and a
// rule naming no command (`*`) are not offered at approval; the prefix rule
// that is offered lets operands through but not options.
func TestAllowedCommandsGrantWhatTheyShow(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Handlers: lspclient.Handlers{AskUser: approveThen("reject")},
		Script: "name: allowed_grant\nsteps:" + writeGreetPlan + `
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan, allowed_commands: ["sh *", "go test -exec=./x *", "*", "touch ok *"]}}
  - expect:
      tool_result_contains: {x: ['"approved":true', "were not offered to the user", "sh *"]}
    tool_calls:
      - {id: a, name: run, args: {command: "sh -c 'touch pwned'"}}
      - {id: b, name: run, args: {command: "touch ok -r pwned"}}
      - {id: c, name: run, args: {command: "touch ok ok2"}}
  - text: done
    expect:
      tool_result_contains: {a: ["the user rejected running"], b: ["the user rejected running"], c: ['"exit_code":0']}
`,
	})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "plan"), "end_turn")
	approvals := h.AskUserRequests("plan_approval")
	if len(approvals) != 1 {
		t.Fatalf("%d approvals", len(approvals))
	}
	q := approvals[0].Questions[0].Question
	if !strings.Contains(q, "`touch ok *`") || strings.Contains(q, "sh *") || strings.Contains(q, "-exec") || strings.Contains(q, "`*`") {
		t.Fatalf("approval question %q, want only `touch ok *` offered", q)
	}
	if exists(t, h, "pwned") || !exists(t, h, "ok2") {
		t.Fatal("a command not granted ran, or the granted prefix rule did not")
	}
}
