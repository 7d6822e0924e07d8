package server_test

import (
	"testing"

	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestRunWarnsOfUnsavedCodeNotOfTheOpenPlan: in build mode the agent ticks
// the plan open in the editor and edits main.go, both left unsaved (an
// editor that saves edits itself); run's warning names main.go alone. The
// plan's buffer is the plan's truth and a build's commands do not read it,
// so naming it was noise.
func TestRunWarnsOfUnsavedCodeNotOfTheOpenPlan(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Files:    map[string]string{"main.go": "package main\n", openPlan: lensPlan},
		InitOpts: map[string]any{"run": map[string]any{"allow": []string{"true"}}},
		Script: `
name: tick_edit_run
steps:
  - tool_calls:
      - {id: p1, name: plan_edit, args: {path: plans/lens.plan, old_string: "- [ ] two", new_string: "- [x] two"}}
      - {id: e1, name: edit, args: {path: main.go, old_string: "package main", new_string: "package edited"}}
  - expect:
      tool_result_contains: {p1: ['"success":true'], e1: ['"success":true']}
    tool_calls:
      - {id: c1, name: run, args: {command: "true"}}
  - expect:
      tool_result_contains: {c1: ['not your edits to main.go"']}
    text: done
`,
	})
	for path, text := range map[string]string{"main.go": "package main\n", openPlan: lensPlan} {
		if err := h.Editor.Open(h.Ctx, path, text); err != nil {
			t.Fatal(err)
		}
	}
	s := h.NewSession("build")
	wantStop(t, h.Prompt(s.SessionID, "tick, edit and run"), "end_turn")
	if h.Model.Remaining() != 0 {
		t.Fatalf("script has %d steps left", h.Model.Remaining())
	}
}
