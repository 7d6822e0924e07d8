package server_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestApprovalIsAskedBesideAnUnansweredShowDocument: an editor that never
// answers window/showDocument still gets the approval question at once
// (before agentls gives up on the document, which would send
// $/cancelRequest), and the approved plan is built.
func TestApprovalIsAskedBesideAnUnansweredShowDocument(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Script: approvalScript(approvedScript),
		Handlers: lspclient.Handlers{
			Unanswered: []string{"window/showDocument"},
			AskUser:    func(json.RawMessage) any { return map[string]any{"answers": map[string]any{"approve": true}} },
		},
	})
	s := h.NewSession("plan")
	select {
	case res := <-h.PromptAsync(s.SessionID, "plan a greeting"):
		wantStop(t, res, "end_turn")
	case <-time.After(time.Minute):
		t.Fatal("the turn did not end: the approval question waited for window/showDocument")
	}
	var order []string
	for _, m := range h.Editor.Messages() {
		switch m.Method {
		case "window/showDocument", "agent/askUser", "$/cancelRequest":
			order = append(order, m.Method)
		}
	}
	if len(order) < 2 || order[0] != "window/showDocument" && order[0] != "agent/askUser" ||
		order[1] != "window/showDocument" && order[1] != "agent/askUser" || order[0] == order[1] {
		t.Fatalf("messages %v: want showDocument and askUser before any $/cancelRequest", order)
	}
	if got := h.Editor.Mode(s.SessionID); got != "build" {
		t.Errorf("mode %q after approval, want build", got)
	}
}
