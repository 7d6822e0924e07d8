package acp_test

import (
	"context"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/acp/internal/acptest"
)

// holdPermission answers no permission request until agentls withdraws it
// ($/cancel_request) or the test ends: a person who has not decided yet.
func holdPermission(t *testing.T) func(context.Context, sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	return func(ctx context.Context, _ sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		select {
		case <-ctx.Done():
		case <-done:
		}
		return sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{}}
	}
}

// TestPromptWhileApprovalPendingRevisesThePlan: a session/prompt sent while
// the turn waits for the plan approval is the user's answer, as on the LSP
// face: the plan is rejected with the prompt's text as the reason and the
// waiting turn goes on (the model revises), both prompts ending end_turn.
// The ACP Go SDK cancels the running prompt when another arrives; that
// cancel must not reach a turn waiting for an approval (before, both
// prompts ended `cancelled` and the model never read the feedback).
func TestPromptWhileApprovalPendingRevisesThePlan(t *testing.T) {
	t.Parallel()
	env := acptest.Start(t, acptest.Setup{Permit: holdPermission(t), Script: `
steps:
  - tool_calls: [{id: w, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: "# Goal\nSay hi.\n\n## Steps\n- [ ] Write hi.txt\n"}}]
  - tool_calls: [{id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}]
  - expect: {tool_result_contains: {x: ["Plan rejected by the user. Reason: make it purple"]}}
    text: "Revised in purple."
`})
	sid := env.NewSession()
	env.PromptAsync(sid, "plan a greeting")
	env.AwaitInTurn(sid, acptest.PermissionRequested("the plan approval", nil))
	env.PromptAsync(sid, "make it purple")
	env.Await(
		acptest.PromptEndedWith(0, sdk.StopReasonEndTurn),
		acptest.PromptEndedWith(1, sdk.StopReasonEndTurn),
		acptest.Update("agent_message_chunk", "the model's revision", func(u sdk.SessionUpdate) bool {
			c := u.AgentMessageChunk.Content.Text
			return c != nil && c.Text == "Revised in purple."
		}),
		acptest.ToolCallStatus("x", sdk.ToolCallStatusFailed),
		acptest.Not(acptest.Update("current_mode_update", "", nil)),
	)
}

// TestPromptWhileTurnRunsSupersedesIt: a session/prompt sent while the
// turn runs otherwise (here it waits for a run permission) cancels that
// turn, as session/cancel would (the ACP Go SDK's rule), and runs once it
// has ended: the first ends `cancelled`, the command does not run, the
// second ends end_turn.
func TestPromptWhileTurnRunsSupersedesIt(t *testing.T) {
	t.Parallel()
	env := acptest.Start(t, acptest.Setup{UserConfig: buildByDefault, Permit: holdPermission(t), Script: `
steps:
  - tool_calls: [{id: r1, name: run, args: {command: "touch made"}}]
  - text: "Second turn."
`})
	sid := env.NewSession()
	env.PromptAsync(sid, "make it")
	env.AwaitInTurn(sid, acptest.PermissionRequested("the run permission", nil))
	env.PromptAsync(sid, "never mind")
	env.Await(acptest.PromptEndedWith(0, sdk.StopReasonCancelled), acptest.PromptEndedWith(1, sdk.StopReasonEndTurn),
		acptest.ToolCallStatus("r1", sdk.ToolCallStatusFailed))
	if env.Exists("made") {
		t.Error("the withdrawn command ran")
	}
}
