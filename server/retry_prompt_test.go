package server_test

import (
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// userMessages are the loaded session's user messages.
func userMessages(h *lsptest.Env, sid string) []agentproto.Message {
	var out []agentproto.Message
	for _, m := range lsptest.MustCall(h, agentproto.LoadSession, agentproto.SessionParams{SessionID: sid}).Messages {
		if m.Role == "user" {
			out = append(out, m)
		}
	}
	return out
}

// TestRetryFailedPrompt: a prompt whose turn ends with an error keeps the
// error in the session (agent/loadSession shows it on the prompt, also
// after a restart); agent/prompt retryOf sends the same text again without
// a second user message, and a success clears the error. retryOf naming
// an unknown message or one that is not the last prompt is -32602 and
// runs nothing.
func TestRetryFailedPrompt(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{Script: `
name: retry
steps:
  - error: "upstream exploded (503)"
  - text: recovered
    expect:
      last_message_contains: ["summarise the repo"]
`})
	s := h.NewSession("plan")
	r := h.Prompt(s.SessionID, "summarise the repo")
	if r.StopReason != "error" || r.Error == nil || !strings.Contains(r.Error.Message, "upstream exploded") {
		t.Fatalf("first prompt = %+v", r)
	}
	dir := h.Dir
	if err := h.Editor.Close(); err != nil {
		t.Fatal(err)
	}

	h = lsptest.Start(t, lsptest.Setup{Dir: dir, Script: `
name: retried
steps:
  - text: recovered
    expect:
      last_message_contains: ["summarise the repo"]
`})
	users := userMessages(h, s.SessionID)
	if len(users) != 1 || !strings.Contains(users[0].Error, "upstream exploded") {
		t.Fatalf("after a restart the failed prompt is %+v, want it with its error", users)
	}
	failed := users[0].ID

	for _, bad := range []string{"no-such-message", s.SessionID} {
		_, err := lsptest.Call(h, agentproto.Prompt, agentproto.PromptParams{SessionID: s.SessionID, RetryOf: bad})
		wantInvalidParams(t, err, "retryOf")
	}
	// The command takes retryOf too (no text needed).
	err := h.Editor.Call(h.Ctx, "workspace/executeCommand", map[string]any{"command": "agentls.prompt",
		"arguments": []any{map[string]any{"sessionId": s.SessionID, "retryOf": "no-such-message"}}}, nil)
	wantInvalidParams(t, err, "retryOf")
	if h.Model.Remaining() != 1 {
		t.Fatal("a refused retry asked the model")
	}

	res := lsptest.MustCall(h, agentproto.Prompt, agentproto.PromptParams{SessionID: s.SessionID, RetryOf: failed})
	if res.StopReason != "end_turn" || res.Text != "recovered" {
		t.Fatalf("retry = %+v", res)
	}
	users = userMessages(h, s.SessionID)
	if len(users) != 1 || users[0].ID != failed || users[0].Error != "" {
		t.Fatalf("after the retry the prompts are %+v, want the one prompt without its error", users)
	}
	if h.Model.Remaining() != 0 {
		t.Fatalf("script has %d steps left", h.Model.Remaining())
	}
}
