package server_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestUnreadableApprovalAnswerIsShown: a plain editor answers the plan
// approval with an action it was not offered (its title padded). That
// answer approves nothing and the approval stays pending, as before; now
// the user is also told, in a window/showMessage error, that agentls could
// not use the answer and how to decide instead (before, only agentls's log
// said so: the user had answered and saw nothing happen).
func TestUnreadableApprovalAnswerIsShown(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Caps:   lsptest.PlainCaps(),
		Script: approvalScript("\n  - text: building\n"),
		Handlers: lspclient.Handlers{ShowMessageRequest: func(json.RawMessage) any {
			return map[string]any{"title": "Accept & Build "}
		}},
	})
	s := h.NewSession("plan")
	done := h.PromptRPC(map[string]any{"sessionId": s.SessionID, "text": "plan"})
	shown := h.AwaitShown("could not use the editor's answer")
	if shown.Type != 1 || !strings.Contains(shown.Message, `unknown action "Accept & Build "`) ||
		!strings.Contains(shown.Message, "still awaits approval") {
		t.Fatalf("shown = %+v, want an error naming the action and what to do", shown)
	}
	if got := h.Editor.Mode(s.SessionID); got == "build" {
		t.Fatal("an action that was not offered approved the plan")
	}
	if _, err := resolvePlan(h, s.SessionID, "approve", ""); err != nil {
		t.Fatalf("the approval is not pending after the unreadable answer: %v", err)
	}
	out := <-done
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	wantStop(t, out.Result, "end_turn")
}
