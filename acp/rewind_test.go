package acp_test

import (
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestRewindSlashCommand: /rewind on the ACP face restores the code of the
// last turn (the client's file is back, as it was before the turn), answers
// with what it did and how to undo it, and the model's next request carries
// the note that the files changed under it; /rewind with the undo id brings
// the turn's change back.
func TestRewindSlashCommand(t *testing.T) {
	client := &testClient{}
	r := newRig(t, setup{userConfig: buildByDefault, client: client, files: map[string]string{"a.txt": "one\n", "b.txt": "two\n"}, script: `
steps:
  - tool_calls:
      - {id: e1, name: edit, args: {path: a.txt, old_string: one, new_string: ONE}}
  - expect: {tool_result_contains: {e1: ['"success":true']}}
    text: "Edited."
  - expect:
      system_contains: ["# Rewind", "The user rewound the workspace's files to an earlier checkpoint; the conversation was kept.", "These files changed (read them again before editing them): a.txt."]
      last_message_contains: ["what now"]
    text: "I will read a.txt again."
`})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "edit a.txt"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("turn 1: %s", stop)
	}
	if got := r.read("a.txt"); got != "ONE\n" {
		t.Fatalf("a.txt after the turn = %q", got)
	}
	before := len(client.agentText())
	if stop := r.mustPrompt(sid, "/rewind"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("/rewind: %s", stop)
	}
	answer := client.agentText()[before:]
	if !strings.Contains(answer, "Rewound the code to before message ") || !strings.Contains(answer, "1 file(s) restored") || !strings.Contains(answer, "To undo: /rewind ") {
		t.Fatalf("/rewind answered %q", answer)
	}
	if got := r.read("a.txt"); got != "one\n" {
		t.Fatalf("a.txt after /rewind = %q, want the text before the turn", got)
	}
	if got := r.read("b.txt"); got != "two\n" {
		t.Fatalf("b.txt = %q", got)
	}
	undo := strings.TrimSpace(answer[strings.LastIndex(answer, "To undo: /rewind ")+len("To undo: /rewind "):])
	if stop := r.mustPrompt(sid, "what now"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("turn 3: %s (the model's request lacked the rewind note?)", stop)
	}
	if stop := r.mustPrompt(sid, "/rewind "+undo); stop != sdk.StopReasonEndTurn {
		t.Fatalf("/rewind %s: %s", undo, stop)
	}
	if got := r.read("a.txt"); got != "ONE\n" {
		t.Fatalf("a.txt after the undo = %q, want the turn's change back", got)
	}
}
