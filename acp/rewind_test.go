package acp_test

import (
	"context"
	"os"
	"path/filepath"
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

// TestRewindKeepsWhatTheUserWroteWhileTheRunQuestionWasOpen: an ACP
// client reports no saves. While the person reads the question about
// `touch made.txt`, they write x.txt and create new.txt on disk, then
// allow the command. Only made.txt is the command's: /rewind removes it
// and leaves the person's files as they wrote them.
func TestRewindKeepsWhatTheUserWroteWhileTheRunQuestionWasOpen(t *testing.T) {
	client := &testClient{}
	var dir string
	client.permit = func(_ context.Context, p sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		for name, text := range map[string]string{"x.txt": "the user's save\n", "new.txt": "the user's new file\n"} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Error(err)
			}
		}
		return sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: "allow_once"}}
	}
	r := newRig(t, setup{userConfig: buildByDefault, client: client, files: map[string]string{"x.txt": "before\n"}, script: `
steps:
  - tool_calls: [{id: r, name: run, args: {command: "touch made.txt"}}]
  - text: "OK."
`})
	dir = r.dir
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "go"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop = %s", stop)
	}
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); err != nil {
		t.Fatalf("the command did not run: %v", err)
	}
	before := len(client.agentText())
	if stop := r.mustPrompt(sid, "/rewind"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("/rewind: %s", stop)
	}
	answer := client.agentText()[before:]
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); !os.IsNotExist(err) {
		t.Errorf("made.txt, the command's own file, survived /rewind: %v (%q)", err, answer)
	}
	if got := r.read("x.txt"); got != "the user's save\n" {
		t.Errorf("x.txt after /rewind = %q, want the user's text kept (%q)", got, answer)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "new.txt")); err != nil || string(b) != "the user's new file\n" {
		t.Errorf("new.txt after /rewind: %q %v, want the user's file kept (%q)", b, err, answer)
	}
}
