package acp_test

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// toolCallText is every text block of a tool call's updates, in order.
func toolCallText(c *testClient, id string) string {
	var b strings.Builder
	for _, u := range c.toolUpdates(id) {
		for _, tc := range u.Content {
			if tc.Content != nil && tc.Content.Content.Text != nil {
				b.WriteString(tc.Content.Content.Text.Text + "\n")
			}
		}
	}
	return b.String()
}

// TestARejectedRunShowsItsCommandEscapedInTheToolCall: the person rejects
// a command holding a right-to-left override; the question showed it
// escaped (\u202E), and so must the call's last update, which every client
// shows in the call's body ("the user rejected running …"): a raw U+202E
// there makes the editor reorder the line, so the call reads as a
// different command than the one the question named.
func TestARejectedRunShowsItsCommandEscapedInTheToolCall(t *testing.T) {
	t.Parallel()
	client := &testClient{permit: choose("reject_once")}
	r := newRig(t, setup{userConfig: buildByDefault, client: client, script: `
steps:
  - tool_calls: [{id: r1, name: run, args: {command: "echo \u202Eevil"}}]
  - expect: {tool_result_contains: {r1: ["rejected"]}}
    text: "Done."
`})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "run"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s", stop)
	}
	if st := client.finalStatus("r1"); st != sdk.ToolCallStatusFailed {
		t.Fatalf("r1 ended %q, want failed", st)
	}
	text := toolCallText(client, "r1")
	if strings.ContainsRune(text, '\u202E') || !strings.Contains(text, `the user rejected running echo \u202Eevil`) {
		t.Errorf("the rejected call's update does not name the command escaped (\\u202E), as the question showed it:\n%q", text)
	}
}

// TestACancelledQuestionShowsTheCommandEscapedInTheToolCall: the person
// cancels the turn while a command's question is open (agent-shell's
// C-c C-c, CodeCompanion's cancel key): the call ends failed with a
// sentence naming the command, which must show it as the question did
// (escaped), not raw.
func TestACancelledQuestionShowsTheCommandEscapedInTheToolCall(t *testing.T) {
	t.Parallel()
	client := &testClient{} // nil permit: the cancelled outcome
	r := newRig(t, setup{userConfig: buildByDefault, client: client, script: `
steps:
  - tool_calls: [{id: r1, name: run, args: {command: "echo \u202Eevil"}}]
  - text: "Done."
`})
	sid := r.newSession().SessionId
	stop := r.mustPrompt(sid, "run")
	if stop != sdk.StopReasonCancelled {
		t.Fatalf("stop %s, want cancelled", stop)
	}
	if st := client.finalStatus("r1"); st != sdk.ToolCallStatusFailed {
		t.Fatalf("r1 ended %q, want failed", st)
	}
	text := toolCallText(client, "r1")
	if strings.ContainsRune(text, '\u202E') || !strings.Contains(text, `echo \u202Eevil did not run`) {
		t.Errorf("the cancelled call's update does not name the command escaped (\\u202E), as the question showed it:\n%q", text)
	}
}

// toolCallStart is the tool_call that started the call id.
func toolCallStart(c *testClient, id string) *sdk.SessionUpdateToolCall {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, u := range c.updates {
		if u.Update.ToolCall != nil && string(u.Update.ToolCall.ToolCallId) == id {
			return u.Update.ToolCall
		}
	}
	return nil
}

// TestACommandsRawInputAndOutputShownEscaped: a tool call's rawInput is
// shown by clients (agent-shell puts rawInput.command at the top of the
// run question, in a fence of its own, when the title does not hold it),
// so every string in it is escaped as the question shows it, a command on
// one line (a line of its own could close that fence); the output of a
// command that ran reaches the call's text escaped too. The command runs
// as the model wrote it, and rawOutput keeps the result as it is.
func TestACommandsRawInputAndOutputShownEscaped(t *testing.T) {
	t.Parallel()
	client := &testClient{permit: choose("allow_once")}
	r := newRig(t, setup{userConfig: buildByDefault, client: client, script: `
steps:
  - tool_calls: [{id: r1, name: run, args: {command: "printf '%s\\n' \u202Eolleh\necho '` + "```" + `'"}}]
  - expect: {tool_result_contains: {r1: ['"exit_code":0']}}
    text: "Done."
`})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "run"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s", stop)
	}
	start := toolCallStart(client, "r1")
	if start == nil {
		t.Fatal("no tool_call for r1")
	}
	in, _ := start.RawInput.(map[string]any)
	if got, want := in["command"], "printf '%s\\n' \\u202Eolleh\\u000Aecho '```'"; got != want {
		t.Errorf("rawInput.command = %q, want %q (escaped, on one line)", got, want)
	}
	if st := client.finalStatus("r1"); st != sdk.ToolCallStatusCompleted {
		t.Fatalf("r1 ended %q, want completed", st)
	}
	text := toolCallText(client, "r1")
	if strings.ContainsRune(text, '\u202E') || !strings.Contains(text, `\u202Eolleh`) {
		t.Errorf("the call's text does not show the output's RLO escaped:\n%q", text)
	}
	var raw string
	for _, u := range client.toolUpdates("r1") {
		if u.RawOutput != nil {
			b, _ := json.Marshal(u.RawOutput)
			raw = string(b)
		}
	}
	if !strings.Contains(raw, "\u202Eolleh") {
		t.Errorf("rawOutput lost the command's output as it is: %s", raw)
	}
}
