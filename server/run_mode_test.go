package server_test

import (
	"encoding/json"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestRunRefusedWhenModeChangedDuringPermission: a build session's run waits
// for the user's permission; meanwhile the user switches the session to plan
// mode (agent/setMode); then the user clicks Run. The mode is read again
// right before the process starts, so the command is refused with the
// plan-mode refusal and never runs, whatever the answer. An "Always allow"
// answer is not a way around it either.
func TestRunRefusedWhenModeChangedDuringPermission(t *testing.T) {
	t.Parallel()
	for _, answer := range []string{"allow_once", "allow_always"} {
		t.Run(answer, func(t *testing.T) {
			var h *lsptest.Env
			var setModeErr error
			h = lsptest.Start(t, lsptest.Setup{
				Handlers: lspclient.Handlers{AskUser: func(raw json.RawMessage) any {
					var p lsptest.AskUser
					_ = json.Unmarshal(raw, &p)
					// The user switches the session to plan mode while the
					// question is open, then answers it.
					setModeErr = h.Editor.Call(h.Ctx, "agent/setMode", map[string]any{"sessionId": p.SessionID, "mode": "plan"}, nil)
					return map[string]any{"answers": map[string]any{"decision": answer}}
				}},
				Script: `
name: mode_changed
steps:
  - tool_calls:
      - {id: r, name: run, args: {command: "touch ran.txt"}}
  - text: refused
    expect:
      tool_result_contains: {r: ['"success":false', "System is in Plan Mode", '"tool_kind":"execute"', "no longer in build mode"]}
`,
			})
			s := h.NewSession("build")
			wantStop(t, h.Prompt(s.SessionID, "run"), "end_turn")
			if setModeErr != nil {
				t.Fatalf("agent/setMode: %v", setModeErr)
			}
			if n := len(h.AskUserRequests("")); n != 1 {
				t.Fatalf("%d permission asks, want 1", n)
			}
			if exists(t, h, "ran.txt") {
				t.Fatal("the command ran although the session switched to plan mode before it started")
			}
			status, out := h.ToolOutput("r")
			if status != "failed" || out["refusal"] == nil || out["error"] != "System is in Plan Mode. You can only modify the plan. Switch to Build Mode to apply changes." {
				t.Fatalf("run = %s %v", status, out)
			}
			if !lsptest.HasLine(h.LogLines(), "[plan-mode] refused tool=run kind=execute") {
				t.Fatalf("no refusal line in %q", h.LogLines())
			}
			if got := h.Editor.Mode(s.SessionID); got != "plan" {
				t.Fatalf("mode = %q, want plan", got)
			}
		})
	}
}
