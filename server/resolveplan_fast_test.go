package server_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestResolvePlanFasterThanAPerson: a client that dismisses the approval
// question at once and approves through agent/resolvePlan (Neovim 0.7
// without a deferred reply answers so; an auto-approving plug-in could)
// sooner than a person reads a plan is named as a fast dialog answer is:
// exit_plan_mode's result and a window/logMessage say "answered by the
// client in N ms". An approval that comes after permission.HumanFloor is
// not named. Either way the decision stands.
func TestResolvePlanFasterThanAPerson(t *testing.T) {
	t.Parallel()
	const note = "answered by the client in "
	for _, tc := range []struct {
		name  string
		wait  time.Duration
		noted bool
	}{
		{"at once", 0, true},
		{"after a person's time", permission.HumanFloor + 50*time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := lsptest.Start(t, lsptest.Setup{
				Script:   approvalScript(approvedScript),
				Handlers: lspclient.Handlers{AskUser: func(json.RawMessage) any { return map[string]any{"dismissed": true} }},
			})
			s := h.NewSession("plan")
			done := h.PromptRPC(map[string]any{"sessionId": s.SessionID, "text": "plan"})
			h.AwaitInTurn(s.SessionID, lsptest.Received("agent/askUser"))
			time.Sleep(tc.wait) // a person reading the plan
			if _, err := resolvePlan(h, s.SessionID, "approve", ""); err != nil {
				t.Fatalf("resolvePlan: %v", err)
			}
			out := <-done
			if out.Err != nil {
				t.Fatalf("prompt: %v", out.Err)
			}
			wantStop(t, out.Result, "end_turn")
			if got := h.Editor.Mode(s.SessionID); got != "build" {
				t.Fatalf("mode = %q: the approval must stand", got)
			}
			status, result := h.ToolOutput("x")
			if status != "completed" {
				t.Fatalf("exit_plan_mode %s", status)
			}
			b, _ := json.Marshal(result)
			inResult := false
			for _, u := range h.Editor.Messages() {
				if u.Method == "agent/update" && strings.Contains(string(u.Params), `"toolCallId":"x"`) && strings.Contains(string(u.Params), note) {
					inResult = true
				}
			}
			logged := false
			for _, m := range h.Editor.Messages() {
				var p struct {
					Message string `json:"message"`
				}
				if m.Method == "window/logMessage" && json.Unmarshal(m.Params, &p) == nil && strings.HasPrefix(p.Message, note) {
					logged = true
				}
			}
			if inResult != tc.noted || logged != tc.noted {
				t.Errorf("noted in the result %v, in a window/logMessage %v; want %v (result %s)", inResult, logged, tc.noted, b)
			}
		})
	}
}
