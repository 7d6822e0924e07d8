package server_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestApprovalOfASecondPlanShowsIt: when the planner writes two plans and
// asks to approve the second, the session's last plan update before the
// approval question is the second plan's, so the editor's plan view (VS
// Code's approval panel reads it) shows the plan approved. Before (found by
// the webview audit helper), only the first plan's update had gone out:
// the panel showed plans/a.plan while "Accept & Build" approved b.
func TestApprovalOfASecondPlanShowsIt(t *testing.T) {
	t.Parallel()
	asked := make(chan string, 1)
	h := lsptest.Start(t, lsptest.Setup{
		Handlers: lspclient.Handlers{AskUser: func(params json.RawMessage) any {
			select {
			case asked <- string(params):
			default:
			}
			return map[string]any{"answers": map[string]any{"approve": true}}
		}},
		Script: `
name: two plans
steps:
  - tool_calls:
      - {id: a, name: plan_write, args: {title: Harmless, path: plans/a.plan, content: "## Steps\n- [ ] tidy the README\n"}}
  - tool_calls:
      - {id: b, name: plan_write, args: {title: Other, path: plans/b.plan, content: "## Steps\n- [ ] something else\n"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/b.plan}}
  - text: done
`,
	})
	s := h.NewSession("plan")
	done := h.PromptRPC(map[string]any{"sessionId": s.SessionID, "text": "plan"})
	q := <-asked
	if !strings.Contains(q, "plans/b.plan") {
		t.Fatalf("the approval question does not name plans/b.plan: %s", q)
	}
	last := ""
	for _, m := range h.Editor.Messages() {
		if m.Method == "agent/update" && strings.Contains(string(m.Params), `"sessionUpdate":"plan"`) {
			last = string(m.Params)
		}
		if m.Method == "agent/askUser" {
			break
		}
	}
	if !strings.Contains(last, `"planFile":"plans/b.plan"`) {
		t.Fatalf("the last plan update before the approval question: %s; want plans/b.plan's", last)
	}
	<-done
}
