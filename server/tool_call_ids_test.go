package server_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestCallIDOfAnEarlierAnswerGetsAFreshOne: an endpoint that numbers each
// answer's calls from call_0 again gives a later turn's call the id of an
// earlier one. The editors key a call's row by its id (VS Code's
// data-tool-id, Neovim's chat rows, Zed's tool cards): the second call
// would overwrite the first one's row, its result shown under the first
// call. Each call reaches the editor under an id of its own, and each
// result under its call's.
func TestCallIDOfAnEarlierAnswerGetsAFreshOne(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Files: map[string]string{"a.txt": "FIRST-BODY\n", "b.txt": "SECOND-BODY\n"},
		Script: `
steps:
  - tool_calls:
      - {id: call_0, name: read, args: {path: a.txt}}
  - text: "one"
  - tool_calls:
      - {id: call_0, name: read, args: {path: b.txt}}
  - text: "two"
`,
	})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "first"), "end_turn")
	wantStop(t, h.Prompt(s.SessionID, "second"), "end_turn")
	done := lsptest.Updates[agent.UpdateToolCallDone](h, "tool_call_update")
	results := map[string]string{}
	for _, u := range done {
		if u.Status == "completed" {
			results[u.ToolCallID] += string(u.RawOutput)
		}
	}
	if len(results) != 2 {
		t.Fatalf("the two calls finished under %d ids (%v), want 2", len(results), slices.Collect(maps.Keys(results)))
	}
	first, second := 0, 0
	for _, out := range results {
		switch {
		case strings.Contains(out, "FIRST-BODY") && !strings.Contains(out, "SECOND-BODY"):
			first++
		case strings.Contains(out, "SECOND-BODY") && !strings.Contains(out, "FIRST-BODY"):
			second++
		}
	}
	if first != 1 || second != 1 {
		t.Errorf("each id should hold one call's result: %v", results)
	}
}
