package server_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/sandbox"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// This file proves the run tool's permission flow end to end: run.allow, the
// Run / Always allow / Reject question on both surfaces, the timeout, the
// plan-mode refusal and cancellation (run_linux_test.go kills a process).

// optionIDs are the permission option ids (PROTOCOL.md §9) by the words
// the tests use.
var optionIDs = map[string]string{"run": "allow_once", "always": "allow_always", "reject": "reject_once"}

// option is the permission option id of a word ("run", "always",
// "reject"), or the word itself.
func option(word any) any {
	if id, ok := optionIDs[fmt.Sprint(word)]; ok {
		return id
	}
	return word
}

// decide answers permission questions with decision ("run", "always",
// "reject": allow_once, allow_always, reject_once) or, for a nil decision,
// dismisses them.
func decide(decision any) func(json.RawMessage) any {
	return func(json.RawMessage) any {
		if decision == nil {
			return map[string]any{"dismissed": true}
		}
		return map[string]any{"answers": map[string]any{"decision": option(decision)}}
	}
}

// approveThen accepts plan approvals and answers permission questions with
// decision.
func approveThen(decision string) func(json.RawMessage) any {
	return func(raw json.RawMessage) any {
		var p lsptest.AskUser
		_ = json.Unmarshal(raw, &p)
		if p.Purpose == "plan_approval" {
			return map[string]any{"answers": map[string]any{"approve": true}}
		}
		return map[string]any{"answers": map[string]any{"decision": option(decision)}}
	}
}

// runPlace is the network and sandbox a run question shows for command on
// this machine (the sandbox's probe, the default configuration).
func runPlace(command string) (network, sandboxState string) {
	return agent.RunPlace(sandbox.Detect().Status(sandbox.Mode("auto")), nil, command)
}

func exists(t *testing.T, h *lsptest.Env, name string) bool {
	t.Helper()
	_, err := os.Stat(filepath.Join(h.Dir, name))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return err == nil
}

func TestRunPermission(t *testing.T) {
	t.Parallel()
	const list = "touch ran.txt; echo done-running"
	tests := []struct {
		name     string
		command  string
		allow    []string
		reply    any
		wantAsks int
		wantRun  bool
		want     []string
	}{
		{"allowed by a prefix rule", "touch ran.txt", []string{"git status", "touch *"}, nil, 0, true, []string{`"exit_code":0`, `"timed_out":false`}},
		{"allowed exactly", "touch ran.txt", []string{"touch ran.txt"}, nil, 0, true, []string{`"exit_code":0`}},
		{"a list is asked despite a prefix rule", list, []string{"touch ran.txt *", "touch *"}, "run", 1, true, []string{`"exit_code":0`, "done-running"}},
		{"a list is asked despite an exact rule", list, []string{list}, "run", 1, true, []string{`"success":true`, "done-running"}},
		{"a list is asked despite *", list, []string{"*"}, "reject", 1, false, []string{`"success":false`, "the user rejected running " + list}},
		{"asked, run", "touch ran.txt", []string{"echo*x", "touch ran"}, "run", 1, true, []string{`"success":true`, `"exit_code":0`}},
		{"asked, reject", "touch ran.txt", nil, "reject", 1, false, []string{`"success":false`, "the user rejected running touch ran.txt"}},
		{"asked, dismissed", "touch ran.txt", nil, nil, 1, false, []string{`"success":false`, "the user rejected running"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var opts map[string]any
			if tc.allow != nil {
				opts = map[string]any{"run": map[string]any{"allow": tc.allow}}
			}
			h := lsptest.Start(t, lsptest.Setup{
				InitOpts: opts,
				Handlers: lspclient.Handlers{AskUser: decide(tc.reply)},
				Script: fmt.Sprintf(`
name: run
steps:
  - tool_calls:
      - {id: r, name: run, args: {command: %q}}
  - text: ok
    expect:
      tool_result_contains: {r: %s}
`, tc.command, yamlList(tc.want...)),
			})
			s := h.NewSession("build")
			wantStop(t, h.Prompt(s.SessionID, "run it"), "end_turn")
			asks := h.AskUserRequests("")
			if len(asks) != tc.wantAsks {
				t.Fatalf("%d permission asks, want %d", len(asks), tc.wantAsks)
			}
			if got := exists(t, h, "ran.txt"); got != tc.wantRun {
				t.Fatalf("command ran = %v, want %v", got, tc.wantRun)
			}
			if tc.wantAsks == 0 {
				return
			}
			a := asks[0]
			q := a.Questions[0]
			if a.Purpose != "permission" || len(a.Questions) != 1 || q.Severity != "major" {
				t.Fatalf("permission question = %+v", a)
			}
			// The question names the command, its folder, the network and
			// the sandbox; the payload carries the same.
			network, sandboxState := runPlace(tc.command)
			where := "\n\nFolder: " + h.Dir + "\nNetwork: " + network + "\nSandbox: " + sandboxState
			if p := a.Permission; p == nil || p.Kind != "run" || p.What != tc.command || p.Cwd != h.Dir ||
				p.Network != network || p.Sandbox != sandboxState || p.Reach != "process" {
				t.Fatalf("permission payload = %+v", a.Permission)
			}
			if tc.command == list {
				// A list cannot be allowed always: no "Always allow" button.
				if q.Question != "Run `"+list+"`?"+where+"\n\nIt is not a single simple command (it is 2 commands), so it is asked each time: allow rules cannot match it." ||
					len(q.Buttons) != 2 || q.Buttons[0].Label != "Reject" || q.Buttons[1].Label != "Run" || len(a.Permission.Options) != 2 {
					t.Fatalf("permission question for a list = %+v", a)
				}
				return
			}
			if q.Question != "Run `"+tc.command+"`?"+where ||
				len(q.Buttons) != 3 || q.Buttons[0].Label != "Reject" || q.Buttons[1].Label != "Run" || q.Buttons[2].Label != fmt.Sprintf("Always allow %q (this session)", tc.command) {
				t.Fatalf("permission question = %+v", a)
			}
		})
	}
}

// alwaysScript runs "echo one" three times and "echo two" once.
const alwaysScript = `
name: always
steps:
  - tool_calls:
      - {id: a1, name: run, args: {command: "echo one"}}
  - expect:
      tool_result_contains: {a1: ['"exit_code":0']}
    tool_calls:
      - {id: a2, name: run, args: {command: "  echo one  "}}
  - expect:
      tool_result_contains: {a2: ['"exit_code":0']}
    tool_calls:
      - {id: b, name: run, args: {command: "echo two"}}
  - expect:
      tool_result_contains: {b: ['"exit_code":0', "two"]}
    tool_calls:
      - {id: a3, name: run, args: {command: "echo one"}}
  - text: done
    expect:
      tool_result_contains: {a3: ['"exit_code":0', "one"]}
`

func TestRunAlwaysAllowIsRemembered(t *testing.T) {
	t.Parallel()
	pick := func(message string) string {
		if strings.Contains(message, "echo one") {
			return "allow_always"
		}
		return "allow_once"
	}
	t.Run("askUser", func(t *testing.T) {
		// A second session of the same server is asked again.
		script := alwaysScript + `
  - tool_calls:
      - {id: c1, name: run, args: {command: "echo one"}}
  - text: asked again
    expect:
      tool_result_contains: {c1: ['"exit_code":0']}
`
		h := lsptest.Start(t, lsptest.Setup{Script: script, Handlers: lspclient.Handlers{AskUser: func(raw json.RawMessage) any {
			var p lsptest.AskUser
			_ = json.Unmarshal(raw, &p)
			return map[string]any{"answers": map[string]any{"decision": pick(p.Questions[0].Question)}}
		}}})
		s := h.NewSession("build")
		wantStop(t, h.Prompt(s.SessionID, "run"), "end_turn")
		asks := h.AskUserRequests("")
		if len(asks) != 2 || !strings.Contains(asks[0].Questions[0].Question, "echo one") || !strings.Contains(asks[1].Questions[0].Question, "echo two") {
			t.Fatalf("asks = %+v, want one for echo one and one for echo two", asks)
		}
		s2 := h.NewSession("build")
		wantStop(t, h.Prompt(s2.SessionID, "run"), "end_turn")
		asks = h.AskUserRequests("")
		if len(asks) != 3 || asks[2].SessionID != s2.SessionID || !strings.Contains(asks[2].Questions[0].Question, "echo one") {
			t.Fatalf("asks = %+v, want echo one asked again in the second session", asks)
		}
	})
	t.Run("showMessageRequest", func(t *testing.T) {
		h := lsptest.Start(t, lsptest.Setup{Caps: noAskCaps(true), Script: alwaysScript, Handlers: lspclient.Handlers{ShowMessageRequest: func(raw json.RawMessage) any {
			var p lsptest.MessageRequest
			_ = json.Unmarshal(raw, &p)
			for _, a := range p.Actions {
				if a["value"] == pick(p.Message) {
					return a
				}
			}
			return nil
		}}})
		s := h.NewSession("build")
		wantStop(t, h.Prompt(s.SessionID, "run"), "end_turn")
		reqs := h.MessageRequests()
		if len(reqs) != 2 {
			t.Fatalf("%d permission requests, want 2", len(reqs))
		}
		r := reqs[0]
		network, sandboxState := runPlace("echo one")
		if r.Type != 2 || r.Message != "Network: "+network+", Sandbox: "+sandboxState+"\nFolder: "+h.Dir+"\nRun `echo one`?" || len(r.Actions) != 3 ||
			r.Actions[0]["title"] != "Reject" || r.Actions[1]["title"] != "Run" || r.Actions[2]["title"] != `Always allow "echo one" (this session)` ||
			r.Actions[0]["value"] != "reject_once" || r.Actions[1]["value"] != "allow_once" || r.Actions[2]["value"] != "allow_always" {
			t.Fatalf("permission request = %+v", r)
		}
	})
}

func TestRunTimeout(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		InitOpts: map[string]any{"run": map[string]any{"allow": []string{"sleep *"}}},
		Script: `
name: timeout
steps:
  - tool_calls:
      - {id: r, name: run, args: {command: "sleep 30", timeout_secs: 1}}
  - text: too slow
    expect:
      tool_result_contains: {r: ['"success":true', '"timed_out":true', '"exit_code":137']}
`,
	})
	s := h.NewSession("build")
	wantStop(t, h.Prompt(s.SessionID, "sleep"), "end_turn")
}

func TestRunRefusedInPlanMode(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		InitOpts: map[string]any{"run": map[string]any{"allow": []string{"*"}}},
		Handlers: lspclient.Handlers{AskUser: decide("run")},
		Script: `
name: refused
steps:
  - tool_calls:
      - {id: r, name: run, args: {command: "touch pwned"}}
  - text: refused
    expect:
      tool_result_contains: {r: ['"success":false', "System is in Plan Mode", '"tool_kind":"execute"']}
`,
	})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "touch"), "end_turn")
	if n := len(h.Messages("agent/askUser")); n != 0 {
		t.Fatalf("%d permission asks in plan mode", n)
	}
	if exists(t, h, "pwned") {
		t.Fatal("the command ran in plan mode")
	}
	if status, out := h.ToolOutput("r"); status != "failed" || out["refusal"] == nil {
		t.Fatalf("run = %s %v", status, out)
	}
	if !lsptest.HasLine(h.LogLines(), "[plan-mode] refused tool=run kind=execute") {
		t.Fatalf("no refusal line in %q", h.LogLines())
	}
}

// cancelAtFirstQuestion runs script's turn in a build session and sends
// agent/cancel while its first question (a permission) is open in the
// editor; it returns once the turn ended.
func cancelAtFirstQuestion(t *testing.T, script string) *lsptest.Env {
	t.Helper()
	release := make(chan struct{})
	h := lsptest.Start(t, lsptest.Setup{
		Handlers: lspclient.Handlers{AskUser: blockingAsk(release, map[string]any{"answers": map[string]any{"decision": "allow_once"}})},
		Script:   script,
	})
	t.Cleanup(func() { close(release) }) // before the server's and client's own (cleanups run last first)
	s := h.NewSession("build")
	done := h.PromptRPC(map[string]any{"sessionId": s.SessionID, "text": "run"})
	cancelWhileAsked(h, t, s.SessionID, done, "agent/askUser")
	return h
}

// TestCancelWithdrawsPermission: agent/cancel while the permission question
// is open withdraws it and the command never runs.
func TestCancelWithdrawsPermission(t *testing.T) {
	t.Parallel()
	h := cancelAtFirstQuestion(t, `
name: cancel_permission
steps:
  - tool_calls:
      - {id: r, name: run, args: {command: "touch ran.txt"}}
`)
	if status, res := h.ToolOutput("r"); status != "failed" || !strings.Contains(fmt.Sprint(res["error"]), "cancelled by the user") {
		t.Fatalf("run = %s %v", status, res)
	}
	if exists(t, h, "ran.txt") {
		t.Fatal("the command ran after the cancellation")
	}
}

// TestCancelStopsTheStepsLaterCalls: agent/cancel while the first call of
// a step waits for its permission ends the step: the write and the command
// the model asked for after it do not run, and no second question comes.
// Before, the later calls ran after the cancel (the write landed on disk)
// and the turn answered cancelled only then.
func TestCancelStopsTheStepsLaterCalls(t *testing.T) {
	t.Parallel()
	h := cancelAtFirstQuestion(t, `
name: cancel_later_calls
steps:
  - tool_calls:
      - {id: r1, name: run, args: {command: "touch ran.txt"}}
      - {id: w, name: write, args: {path: after-cancel.txt, content: "written after the cancel\n"}}
      - {id: r2, name: run, args: {command: "touch ran2.txt"}}
`)
	for _, id := range []string{"w", "r2"} {
		if status, res := h.ToolOutput(id); status != "failed" || !strings.Contains(fmt.Sprint(res["error"]), "not run: the user cancelled the turn") {
			t.Errorf("%s = %s %v, want not run", id, status, res)
		}
	}
	for _, f := range []string{"ran.txt", "after-cancel.txt", "ran2.txt"} {
		if exists(t, h, f) {
			t.Errorf("%s exists: a call ran after the cancellation", f)
		}
	}
	asks := 0
	for _, m := range h.Editor.Messages() {
		if m.Method == "agent/askUser" {
			asks++
		}
	}
	if n := asks; n != 1 {
		t.Errorf("%d agent/askUser requests, want 1 (none after the cancel)", n)
	}
}
