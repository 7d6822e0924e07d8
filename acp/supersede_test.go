package acp_test

import (
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/acp/internal/acptest"
)

// TestThirdPromptSupersedesTheSecond: docs/acp.md promises that a
// session/prompt sent while the session's turn runs cancels that turn and
// runs once it has wound down. That holds for the second prompt, but the
// ACP Go SDK forgets the second prompt's cancel when the first prompt's
// call returns (it deletes the session's entry, which by then is the
// second's), so a third prompt sent while the second turn runs cancels
// nothing: it finds the session busy and fails, while the second turn
// keeps waiting on its permission.
func TestThirdPromptSupersedesTheSecond(t *testing.T) {
	t.Parallel()
	env := acptest.Start(t, acptest.Setup{UserConfig: buildByDefault, Permit: holdPermission(t), Script: `
steps:
  - tool_calls: [{id: r1, name: run, args: {command: "touch one"}}]
  - tool_calls: [{id: r2, name: run, args: {command: "touch two"}}]
  - text: "Third turn."
`})
	sid := env.NewSession()
	permissionFor := func(call string) acptest.Expectation {
		return acptest.PermissionRequested("the run permission of "+call, func(p sdk.RequestPermissionRequest) bool {
			return string(p.ToolCall.ToolCallId) == call
		})
	}
	env.PromptAsync(sid, "make one")
	env.AwaitInTurn(sid, permissionFor("r1"))
	env.PromptAsync(sid, "make two instead")
	env.Await(permissionFor("r2"), acptest.ToolCallStatus("r1", sdk.ToolCallStatusFailed))
	env.PromptAsync(sid, "no, neither")
	env.Await(acptest.Expectation{Description: "the third prompt returned", Check: func(s acptest.State) acptest.Verdict {
		if len(s.Prompts) >= 3 && s.Prompts[2].Returned {
			return acptest.Met
		}
		return acptest.Unmet
	}})
	prompts := env.State().Prompts
	defer func() { env.Cancel(sid); env.Await(acptest.TurnEnded(sid)) }()
	if len(prompts) != 3 {
		t.Fatalf("%d prompts recorded, want 3", len(prompts))
	}
	if p := prompts[0]; p.Err != nil || p.Stop != sdk.StopReasonCancelled {
		t.Errorf("the first prompt ended %q, %v; want cancelled", p.Stop, p.Err)
	}
	if p := prompts[1]; p.Err != nil || p.Stop != sdk.StopReasonCancelled {
		t.Errorf("the second prompt ended %q, %v; want cancelled (superseded by the third)", p.Stop, p.Err)
	}
	if p := prompts[2]; p.Err != nil || p.Stop != sdk.StopReasonEndTurn {
		t.Errorf("the third prompt ended %q, %v; want end_turn once the second turn wound down", p.Stop, p.Err)
	}
	if env.Exists("one") || env.Exists("two") {
		t.Error("a withdrawn command ran")
	}
}
