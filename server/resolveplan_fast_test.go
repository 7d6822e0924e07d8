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
// sooner than a person reads a plan does not approve it: resolvePlan
// fails saying the client answered in N ms and how the person approves it
// themselves, the mode stays plan and the plan still awaits approval. The
// same call after permission.HumanFloor approves, and nothing names a
// client's answer then.
func TestResolvePlanFasterThanAPerson(t *testing.T) {
	t.Parallel()
	const note = "answered by the client in "
	for _, tc := range []struct {
		name string
		wait time.Duration
		fast bool
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
			_, err := resolvePlan(h, s.SessionID, "approve", "")
			if tc.fast {
				if err == nil || !strings.Contains(err.Error(), note) || !strings.Contains(err.Error(), "the plan is not approved and still awaits approval") ||
					!strings.Contains(err.Error(), "agentls.approvePlan") || strings.Contains(err.Error(), "check the client") {
					t.Fatalf("resolvePlan at once: %v; want the refusal that says so and how to approve", err)
				}
				if got := h.Editor.Mode(s.SessionID); got == "build" {
					t.Fatalf("mode = %q: the client's own approval approved the plan", got)
				}
				time.Sleep(permission.HumanFloor) // the person approves it themselves: it still awaits approval
				if _, err := resolvePlan(h, s.SessionID, "approve", ""); err != nil {
					t.Fatalf("resolvePlan by the person: %v", err)
				}
			} else if err != nil {
				t.Fatalf("resolvePlan: %v", err)
			}
			out := <-done
			if out.Err != nil {
				t.Fatalf("prompt: %v", out.Err)
			}
			wantStop(t, out.Result, "end_turn")
			if got := h.Editor.Mode(s.SessionID); got != "build" {
				t.Fatalf("mode = %q: the person's approval must stand", got)
			}
			if status, _ := h.ToolOutput("x"); status != "completed" {
				t.Fatalf("exit_plan_mode %s", status)
			}
			for _, u := range h.Editor.Messages() {
				if strings.Contains(string(u.Params), note) {
					t.Errorf("%s names a client's answer, but the approval that counted was the person's: %s", u.Method, u.Params)
				}
			}
		})
	}
}
