package server_test

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// This file adds to run_test.go: what run reports (exit code, capped output
// with head and tail, working folder), rejection through
// window/showMessageRequest, and the scope of the commands a plan allows.

// runOutput is the result of one run call as the model read it.
func runOutput(h *lsptest.Env, callID string) (exitCode int, output string) {
	h.T.Helper()
	status, out := h.ToolOutput(callID)
	res, _ := out["result"].(map[string]any)
	code, okCode := res["exit_code"].(float64)
	text, okText := res["output"].(string)
	if status != "completed" || out["success"] != true || !okCode || !okText {
		h.T.Fatalf("run %s = %s %v", callID, status, out)
	}
	return int(code), text
}

func TestRunReportsExitCodeOutputAndFolder(t *testing.T) {
	t.Parallel()
	seq, err := exec.Command("seq", "1", "1000").Output()
	if err != nil {
		t.Skipf("seq: %v", err)
	}
	h := lsptest.Start(t, lsptest.Setup{
		Files:    map[string]string{"sub/marker.txt": "in sub\n"},
		InitOpts: map[string]any{"run": map[string]any{"allow": []string{"seq 1 1000", "pwd *"}, "max_output_bytes": 512}},
		Handlers: lspclient.Handlers{AskUser: decide("run")},
		Script: `
name: run_report
steps:
  - tool_calls:
      - {id: code, name: run, args: {command: "echo failing >&2; exit 3"}}
      - {id: big, name: run, args: {command: "seq 1 1000"}}
      - {id: root, name: run, args: {command: "pwd -P; ls"}}
      - {id: sub, name: run, args: {command: "pwd -P; cat marker.txt", cwd: sub}}
      - {id: out, name: run, args: {command: "pwd", cwd: ".."}}
  - text: done
`,
	})
	s := h.NewSession("build")
	wantStop(t, h.Prompt(s.SessionID, "run"), "end_turn")
	// Only the lists are asked: no allow rule matches a list.
	if asks := h.AskUserRequests(""); len(asks) != 3 || !strings.HasPrefix(asks[0].Questions[0].Question, "Run `echo failing >&2; exit 3`") {
		t.Fatalf("permission asks = %+v, want the three lists only", asks)
	}
	if code, out := runOutput(h, "code"); code != 3 || out != "failing\n" {
		t.Fatalf("exit 3: code %d, output %q", code, out)
	}
	want := fmt.Sprintf("%s\n… %d bytes omitted …\n%s", seq[:256], len(seq)-512, seq[len(seq)-256:])
	if _, out := runOutput(h, "big"); out != want {
		t.Fatalf("capped output =\n%q\nwant\n%q", out, want)
	}
	root, err := filepath.EvalSymlinks(h.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, out := runOutput(h, "root"); !strings.HasPrefix(out, root+"\n") || !strings.Contains(out, "sub\n") {
		t.Fatalf("default folder output %q, want the workspace root %s", out, root)
	}
	if _, out := runOutput(h, "sub"); out != filepath.Join(root, "sub")+"\nin sub\n" {
		t.Fatalf("cwd sub output %q", out)
	}
	if status, out := h.ToolOutput("out"); status != "failed" || !strings.Contains(fmt.Sprint(out["error"]), "cwd") {
		t.Fatalf("cwd outside the workspace = %s %v", status, out)
	}
}

// TestRunRejectedWithMessageRequest: an editor without askUser rejects or
// dismisses the permission request; the command never runs.
func TestRunRejectedWithMessageRequest(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		reply any
	}{
		{"Reject", map[string]any{"title": "Reject"}},
		{"dismissed", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := lsptest.Start(t, lsptest.Setup{
				Caps:     noAskCaps(false),
				Handlers: lspclient.Handlers{ShowMessageRequest: func(json.RawMessage) any { return tc.reply }},
				Script: `
name: reject
steps:
  - tool_calls:
      - {id: r, name: run, args: {command: "touch ran.txt"}}
  - text: ok
    expect:
      tool_result_contains: {r: ['"success":false', "the user rejected running touch ran.txt"]}
`,
			})
			s := h.NewSession("build")
			wantStop(t, h.Prompt(s.SessionID, "run"), "end_turn")
			reqs := h.MessageRequests()
			if len(reqs) != 1 || reqs[0].Type != 2 || len(reqs[0].Actions) != 3 || reqs[0].Actions[2]["title"] != `Always allow "touch ran.txt" (this session)` {
				t.Fatalf("permission requests = %+v", reqs)
			}
			if exists(t, h, "ran.txt") {
				t.Fatal("a rejected command ran")
			}
		})
	}
}

// allowedPlanScript writes a plan, presents it with allowed_commands, then
// runs the allowed command and asks the model's next step to see it ran.
const allowedPlanScript = `
name: allowed_scope
steps:` + writeGreetPlan + `
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan, allowed_commands: ["touch ran.txt"]}}
  - expect:
      tool_result_contains: {x: ['"approved":true']}
    tool_calls:
      - {id: r, name: run, args: {command: "touch ran.txt"}}
  - text: done
    expect:
      tool_result_contains: {r: ['"exit_code":0']}
`

// TestAllowedCommandsWithMessageRequest: the approval message lists the
// commands; once accepted, they run unasked in that session only.
func TestAllowedCommandsWithMessageRequest(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Caps: noAskCaps(false),
		Script: allowedPlanScript + `
  - tool_calls:
      - {id: r2, name: run, args: {command: "touch ran.txt"}}
  - text: asked again
    expect:
      tool_result_contains: {r2: ['"exit_code":0']}
`,
		Handlers: lspclient.Handlers{ShowMessageRequest: func(raw json.RawMessage) any {
			var p lsptest.MessageRequest
			_ = json.Unmarshal(raw, &p)
			if strings.Contains(p.Message, "Approve the plan") {
				return map[string]any{"title": "Accept & Build"}
			}
			return map[string]any{"title": "Run"}
		}},
	})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "plan"), "end_turn")
	reqs := h.MessageRequests()
	if len(reqs) != 1 || !strings.Contains(reqs[0].Message, "`touch ran.txt`") {
		t.Fatalf("requests = %+v, want only the approval, listing the command", reqs)
	}
	if !exists(t, h, "ran.txt") {
		t.Fatal("the allowed command did not run")
	}
	// Another session of the same server did not approve anything.
	s2 := h.NewSession("build")
	wantStop(t, h.Prompt(s2.SessionID, "run"), "end_turn")
	reqs = h.MessageRequests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].Message, "\nFolder: "+h.Dir+"\n") || !strings.HasSuffix(reqs[1].Message, "\nRun `touch ran.txt`?") {
		t.Fatalf("requests = %+v, want the command asked in the second session", reqs)
	}
}

// TestAllowedCommandsNeedTheUsersApproval: with require_approval off nobody
// sees the commands, so none is allowed up front.
func TestAllowedCommandsNeedTheUsersApproval(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		InitOpts: map[string]any{"plan_mode": map[string]any{"require_approval": false}},
		Handlers: lspclient.Handlers{AskUser: decide("run")},
		Script:   allowedPlanScript,
	})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "plan"), "end_turn")
	_, out := h.ToolOutput("x")
	res, _ := out["result"].(map[string]any)
	if msg := fmt.Sprint(res["message"]); !strings.Contains(msg, "allowed_commands were not granted") {
		t.Fatalf("exit_plan_mode message = %q", msg)
	}
	asks := h.AskUserRequests("")
	if len(asks) != 1 || !strings.HasPrefix(asks[0].Questions[0].Question, "Run `touch ran.txt`?\n\nFolder: "+h.Dir+"\n") {
		t.Fatalf("asks = %+v, want the command asked", asks)
	}
}
