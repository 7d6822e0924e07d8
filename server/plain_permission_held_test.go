package server_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// A plain editor may take a permission question off its screen without a
// reply: eglot's C-g signals quit inside jsonrpc's dispatcher, which then
// sends nothing (editors/emacs/tests/put-aside-screen-test.el). The question
// is pending meanwhile, so agentls.answer answers it; whichever answer comes
// first decides.

// putAsideScript runs the same command twice: the second question shows
// whether the first answer saved an "always" rule.
const putAsideScript = `
name: put_aside
steps:
  - tool_calls:
      - {id: r, name: run, args: {command: "touch ran.txt"}}
  - tool_calls:
      - {id: r2, name: run, args: {command: "touch ran.txt"}}
  - text: done
`

// silentEditor answers no window/showMessageRequest (a person pressed C-g)
// until the test releases it; then each gets reply. It records the
// requests' ids.
type silentEditor struct {
	release chan struct{}
	reply   any
}

func newSilentEditor(reply any) *silentEditor {
	return &silentEditor{release: make(chan struct{}), reply: reply}
}

func (e *silentEditor) let() {
	select {
	case <-e.release:
	default:
		close(e.release)
	}
}

func (e *silentEditor) messageRequest(json.RawMessage) any {
	select {
	case <-e.release:
	case <-time.After(30 * time.Second):
	}
	return e.reply
}

// answerCommand runs agentls.answer with answers.
func answerCommand(h *lsptest.Env, answers map[string]any) error {
	return h.Editor.Call(h.Ctx, "workspace/executeCommand", map[string]any{"command": "agentls.answer",
		"arguments": []any{map[string]any{"answers": answers}}}, nil)
}

// messageRequestIDs are the ids of the window/showMessageRequest sent so far.
func messageRequestIDs(h *lsptest.Env) []string {
	var ids []string
	for _, m := range h.Editor.Messages() {
		if m.Method == "window/showMessageRequest" && m.IsCall {
			ids = append(ids, m.ID)
		}
	}
	return ids
}

// TestPermissionPutAsideIsAnsweredWithAgentlsAnswer: the editor never
// replies to the command's question; agentls.answer allow_once, after a
// person's reading time, runs it, withdraws the editor's question
// ($/cancelRequest) and goes on; the editor's reply coming later changes
// nothing. The second question of the same command is answered so too.
func TestPermissionPutAsideIsAnsweredWithAgentlsAnswer(t *testing.T) {
	t.Parallel()
	ed := newSilentEditor(map[string]any{"title": "Reject"})
	h := lsptest.Start(t, lsptest.Setup{Caps: noAskCaps(false), Script: putAsideScript,
		Handlers: lspclient.Handlers{ShowMessageRequest: ed.messageRequest}})
	t.Cleanup(ed.let) // before the editor's shutdown
	s := h.NewSession("build")
	done := h.PromptAsync(s.SessionID, "run")
	for i, call := range []string{"r", "r2"} {
		h.Await(lsptest.MethodCount("window/showMessageRequest", i+1))
		h.ReadAsAPerson()
		if err := answerCommand(h, map[string]any{"decision": "allow_once"}); err != nil {
			t.Fatalf("agentls.answer to the question of %s: %v", call, err)
		}
		h.Await(lsptest.CancelRequestFor(messageRequestIDs(h)[i]))
	}
	wantStop(t, <-done, "end_turn")
	for _, call := range []string{"r", "r2"} {
		if status, out := h.ToolOutput(call); status != "completed" || out["success"] != true {
			t.Fatalf("run %s after agentls.answer allow_once = %s %v", call, status, out)
		}
	}
	if !exists(t, h, "ran.txt") {
		t.Fatal("the command answered with agentls.answer did not run")
	}
	// The editor's late replies decide nothing, and nothing is pending.
	ed.let()
	if err := answerCommand(h, map[string]any{"decision": "allow_once"}); err == nil || !strings.Contains(err.Error(), "no question is pending") {
		t.Fatalf("agentls.answer after the turn = %v, want no question pending", err)
	}
}

// TestPermissionReplyBeforeAgentlsAnswerDecides: the editor's reply
// (Reject) comes first and decides; the question is pending no more.
func TestPermissionReplyBeforeAgentlsAnswerDecides(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{Caps: noAskCaps(false), Script: `
name: reject
steps:
  - tool_calls:
      - {id: r, name: run, args: {command: "touch ran.txt"}}
  - text: ok
    expect:
      tool_result_contains: {r: ['"success":false', "the user rejected running touch ran.txt"]}
`,
		Handlers: lspclient.Handlers{ShowMessageRequest: func(json.RawMessage) any { return map[string]any{"title": "Reject"} }}})
	s := h.NewSession("build")
	wantStop(t, h.Prompt(s.SessionID, "run"), "end_turn")
	if exists(t, h, "ran.txt") {
		t.Fatal("a rejected command ran")
	}
	if err := answerCommand(h, map[string]any{"decision": "allow_once"}); err == nil || !strings.Contains(err.Error(), "no question is pending") {
		t.Fatalf("agentls.answer after the editor's reply = %v, want no question pending", err)
	}
}

// TestPermissionAgentlsAnswerFasterThanAPerson: agentls.answer
// allow_always sooner than a person reads the question (permission.HumanFloor)
// is the client's own answer, as on every other route: the call runs, no
// rule is saved (the second call is asked again), and the result says so.
// An answer that does not fit the question changes nothing.
func TestPermissionAgentlsAnswerFasterThanAPerson(t *testing.T) {
	t.Parallel()
	ed := newSilentEditor(nil)
	h := lsptest.Start(t, lsptest.Setup{Caps: noAskCaps(false), Script: putAsideScript,
		Handlers: lspclient.Handlers{ShowMessageRequest: ed.messageRequest}})
	t.Cleanup(ed.let) // before the editor's shutdown
	s := h.NewSession("build")
	done := h.PromptAsync(s.SessionID, "run")
	h.Await(lsptest.MethodCount("window/showMessageRequest", 1))
	if err := answerCommand(h, map[string]any{"decision": "run it"}); lsptest.RPCCode(err) != -32602 {
		t.Fatalf("agentls.answer with an option not offered = %v, want -32602", err)
	}
	if err := answerCommand(h, map[string]any{"decision": "allow_always"}); err != nil {
		t.Fatalf("agentls.answer allow_always: %v", err)
	}
	h.AwaitMessage("window/logMessage", "answered by the client in ", "(allow_always), faster than a person decides",
		"allowed once, not always (no rule is saved)")
	// The rule was not saved: the same command is asked again.
	h.Await(lsptest.MethodCount("window/showMessageRequest", 2))
	h.ReadAsAPerson()
	if err := answerCommand(h, map[string]any{"decision": "reject_once"}); err != nil {
		t.Fatalf("agentls.answer reject_once: %v", err)
	}
	wantStop(t, <-done, "end_turn")
	if status, out := h.ToolOutput("r"); status != "completed" || out["success"] != true {
		t.Fatalf("run r after a fast agentls.answer allow_always = %s %v, want it run once", status, out)
	}
	if status, out := h.ToolOutput("r2"); out["success"] != false {
		t.Fatalf("run r2 after reject_once = %s %v, want it refused", status, out)
	}
}

// TestWithdrawnPermissionIsToldAndSoIsALateReply: a command's question
// unanswered for plan_mode.approval_timeout_secs is withdrawn
// ($/cancelRequest, which eglot ignores: its prompt stays on the screen).
// A window/showMessage names the command, says it was withdrawn after 1 s
// and did not run; the editor's "Run" coming after that gets a message
// that it came too late and the command did not run, and nothing runs. A
// late dismissal (null) says nothing more.
func TestWithdrawnPermissionIsToldAndSoIsALateReply(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		reply any
	}{
		{"Run", map[string]any{"title": "Run"}},
		{"dismissed", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ed := newSilentEditor(tc.reply)
			h := lsptest.Start(t, lsptest.Setup{Caps: noAskCaps(false),
				InitOpts: map[string]any{"plan_mode": map[string]any{"approval_timeout_secs": 1}},
				Handlers: lspclient.Handlers{ShowMessageRequest: ed.messageRequest},
				Script: `
name: withdrawn
steps:
  - tool_calls:
      - {id: r, name: run, args: {command: "touch ran.txt"}}
  - text: done
`})
			t.Cleanup(ed.let) // before the editor's shutdown
			s := h.NewSession("build")
			wantStop(t, h.Prompt(s.SessionID, "run"), "end_turn")
			h.Await(lsptest.CancelRequestFor(messageRequestIDs(h)[0]))
			h.AwaitMessage("window/showMessage", `"type":2`, "Run `touch ran.txt`?", "was withdrawn after 1 s without an answer",
				"the command did not run")
			ed.let() // the person answers the prompt still on the screen
			if tc.reply != nil {
				h.AwaitMessage("window/showMessage", `"type":2`, "Run `touch ran.txt`?", "came after the question", "was withdrawn",
					"the command did not run", "ask the agent again")
			} else {
				h.ReadAsAPerson() // time for a message that must not come
				for _, m := range h.Shown() {
					if strings.Contains(m.Message, "came after") {
						t.Fatalf("a late dismissal was answered: %q", m.Message)
					}
				}
			}
			if exists(t, h, "ran.txt") {
				t.Fatal("the command ran after its question was withdrawn")
			}
		})
	}
}
