package acp_test

import (
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
