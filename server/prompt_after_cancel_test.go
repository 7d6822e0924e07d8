package server_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestPromptRightAfterCancellingAnApproval: the user cancels a turn that
// waits for its plan approval ($/cancelRequest on the prompt) and prompts
// again at once. The new prompt is a turn of its own: the model reads it
// as the user's message and the cancelled exit_plan_mode as cancelled.
// Before, a prompt within the cancelled turn's grace for answers already
// on their way (agent.CancelAnswerGrace) joined that turn as a rejection
// of the plan: its text became the rejection reason, its result was the
// cancelled turn's, and the model was never asked.
func TestPromptRightAfterCancellingAnApproval(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Script: approvalScript(`
  - text: asked again
    expect:
      last_message_contains: ["keep the plan, add a test"]
      tool_result_contains: {x: ["cancelled"]}
`),
		Handlers: lspclient.Handlers{Unanswered: []string{"agent/askUser"}},
	})
	s := h.NewSession("plan")
	ctx, cancel := context.WithCancel(h.Ctx)
	done := make(chan error, 1)
	go func() {
		done <- h.Editor.Call(ctx, "agent/prompt", map[string]any{"sessionId": s.SessionID, "text": "plan a greeting"}, nil)
	}()
	h.Await(lsptest.Received("agent/askUser"))
	cancel()
	if err := <-done; err == nil {
		t.Fatal("the cancelled prompt returned a result")
	}
	h.Await(lsptest.Received("$/cancelRequest")) // the server withdrew its question
	r := h.Prompt(s.SessionID, "keep the plan, add a test")
	wantStop(t, r, "end_turn")
	if r.Text != "asked again" {
		t.Fatalf("the prompt after the cancel got %q, want the model's answer to it", r.Text)
	}
	for _, m := range h.LoadSession(s.SessionID).Messages {
		if m.ToolCallID == "x" && strings.Contains(m.Content, "Plan rejected") {
			t.Fatalf("the prompt after the cancel rejected the cancelled turn's plan: %s", m.Content)
		}
	}
}
