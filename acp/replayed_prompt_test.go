package acp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// avantePrompt is a prompt as avante.nvim sends it in a session it already
// has: the user's recent messages, newest first, each wrapped, then its note.
func avantePrompt(newestFirst ...string) []sdk.ContentBlock {
	var out []sdk.ContentBlock
	for _, m := range newestFirst {
		out = append(out, sdk.TextBlock("<previous_user_message>"+m+"</previous_user_message>"))
	}
	return append(out, sdk.TextBlock("<system_context>Continuing from previous session with 2 recent user messages</system_context>"))
}

// TestReplayedPromptTakesTheNewestMessage: avante.nvim replays the user's
// earlier messages in every prompt; agentls, which keeps the history
// itself, reads only the newest, so the model is not handed the old
// requests again and a slash command typed in avante runs.
func TestReplayedPromptTakesTheNewestMessage(t *testing.T) {
	client := &testClient{}
	r := newRig(t, setup{
		client: client,
		files:  map[string]string{"app.txt": "alpha\n"},
		script: `name: replayed
steps:
  - expect:
      last_message_contains: ["now the second request"]
    text: "Second done."
`,
	})
	sid := r.newSession().SessionId
	res, err := r.conn.Prompt(r.ctx, sdk.PromptRequest{SessionId: sid, Prompt: avantePrompt("now the second request", "OLD first request")})
	if err != nil || res.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %v %v", res.StopReason, err)
	}
	chats, _ := filepath.Glob(filepath.Join(r.dir, ".agentls", "chats", "*.chat"))
	for _, c := range chats {
		b, _ := os.ReadFile(c)
		if strings.Contains(string(b), "OLD first request") || strings.Contains(string(b), "previous_user_message") {
			t.Errorf("the replayed older message or its wrapping reached the session:\n%s", b)
		}
	}
	// A command typed in avante arrives wrapped too: it runs (no model request:
	// the script has no step left).
	res, err = r.conn.Prompt(r.ctx, sdk.PromptRequest{SessionId: sid, Prompt: avantePrompt("/plans", "now the second request")})
	if err != nil || res.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("/plans: %v %v", res.StopReason, err)
	}
	if got := client.agentText(); !strings.Contains(got, "No plans") && !strings.Contains(got, "Plans (") {
		t.Errorf("/plans did not answer as the command: %q", got)
	}
}

// TestReplayedPromptShapes: only a prompt made wholly of replayed messages
// (and the note) is unwrapped; anything else is the user's text as it is.
func TestReplayedPromptShapes(t *testing.T) {
	client := &testClient{}
	r := newRig(t, setup{
		client: client,
		script: `name: shapes
steps:
  - expect:
      last_message_contains: ["<previous_user_message>/plans</previous_user_message>", "and more"]
    text: "Taken as text."
`,
	})
	sid := r.newSession().SessionId
	// A replayed block followed by a text of the user's own: not avante's shape.
	res, err := r.conn.Prompt(r.ctx, sdk.PromptRequest{SessionId: sid, Prompt: []sdk.ContentBlock{
		sdk.TextBlock("<previous_user_message>/plans</previous_user_message>"), sdk.TextBlock("and more"),
	}})
	if err != nil || res.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %v %v", res.StopReason, err)
	}
	if got := client.agentText(); !strings.Contains(got, "Taken as text.") {
		t.Errorf("agent text %q", got)
	}
}
