package acp_test

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/acp/internal/acptest"
)

// TestRunShowsItsOutputWhileItRuns: a command running in agentls's own
// shell (a client without terminals: CodeCompanion, avante) shows its
// newest output line as the run call's in-progress content, before the
// call completes. Before, such a client showed nothing until the end.
func TestRunShowsItsOutputWhileItRuns(t *testing.T) {
	t.Parallel()
	env := acptest.Start(t, acptest.Setup{
		UserConfig: buildByDefault + "run: {allow: ['sh build.sh']}\n",
		Files:      map[string]string{"build.sh": "echo compiling; sleep 2; echo done\n"},
		Script: `
steps:
  - tool_calls: [{id: r1, name: run, args: {command: "sh build.sh"}}]
  - expect: {tool_result_contains: {r1: ["compiling", "done"]}}
    text: "Built."
`})
	sid := env.NewSession()
	env.PromptAsync(sid, "build it")
	running := acptest.Update("tool_call_update", "r1 in progress showing its output", func(u sdk.SessionUpdate) bool {
		c := u.ToolCallUpdate
		if c == nil || c.ToolCallId != "r1" || c.Status == nil || *c.Status != sdk.ToolCallStatusInProgress {
			return false
		}
		b, _ := json.Marshal(c.Content)
		return strings.Contains(string(b), "compiling")
	})
	// Once r1 completed, its in-progress output must have come before.
	env.Await(acptest.OnceMet(acptest.ToolCallStatus("r1", sdk.ToolCallStatusCompleted), running))
	env.Await(acptest.TurnEndedWith(sid, sdk.StopReasonEndTurn), acptest.ToolCallStatus("r1", sdk.ToolCallStatusCompleted))
}
