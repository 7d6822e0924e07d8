package acp_test

import (
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/acp/internal/acptest"
)

// The tests of this file run on acptest, the expectation harness (the
// others still use the in-package rig of harness_test.go).

func TestPromptStreamsTextAndEndsTurn(t *testing.T) {
	t.Parallel()
	env := acptest.Start(t, acptest.Setup{Script: `
steps:
  - thought: "Thinking it over."
    text: "Hello from agentls."
    expect: {last_message_contains: ["hi there"]}
`})
	sid := env.NewSession()
	env.PromptAsync(sid, "hi there")
	env.AwaitInTurn(sid, acptest.Update("agent_thought_chunk", "", nil))
	env.Await(acptest.TurnEndedWith(sid, sdk.StopReasonEndTurn), acptest.AgentTextIs("Hello from agentls."))
}

func TestRunAsksPermissionOnceAllowAlwaysRemembers(t *testing.T) {
	t.Parallel()
	env := acptest.Start(t, acptest.Setup{UserConfig: buildByDefault, Permit: acptest.Choose("allow_always"), Script: `
steps:
  - tool_calls: [{id: r1, name: run, args: {command: "touch made"}}]
  - expect: {tool_result_contains: {r1: ['"success":true']}}
    tool_calls: [{id: r2, name: run, args: {command: "touch made"}}]
  - expect: {tool_result_contains: {r2: ['"success":true']}}
    text: "Done."
`})
	sid := env.NewSession()
	env.PromptAsync(sid, "make it")
	options := []string{"reject_once/reject_once", "allow_once/allow_once", "allow_always/allow_always"}
	env.Await(
		acptest.TurnEndedWith(sid, sdk.StopReasonEndTurn),
		acptest.PermissionRequested("an execute permission for r1 offering "+strings.Join(options, ", "), func(p sdk.RequestPermissionRequest) bool {
			return p.ToolCall.ToolCallId == "r1" && p.ToolCall.Kind != nil && *p.ToolCall.Kind == sdk.ToolKindExecute &&
				slices.Equal(optionIDs(p), options)
		}),
		// Allow always remembers: the second run is not asked about.
		acptest.Not(acptest.MethodCount("session/request_permission", 2)),
		acptest.ToolCallStatus("r2", sdk.ToolCallStatusCompleted),
	)
	if !env.Exists("made") {
		t.Error("the allowed command did not run")
	}
}

func TestRunRejectedDoesNotRun(t *testing.T) {
	t.Parallel()
	touchMadeNotPermitted(t, acptest.Setup{Permit: acptest.Choose("reject_once")}, "OK.", "the user rejected running touch made", "a rejected command ran",
		acptest.Not(acptest.ToolCallStatus("r1", sdk.ToolCallStatusCompleted)))
}

// touchMadeNotPermitted starts s in build mode, its model running `touch
// made` (r1) and saying text once r1's result holds want, and prompts
// "make it": the turn must end end_turn with r1 failed (and also met), and
// the command must not have run (ran is the failure if it did).
func touchMadeNotPermitted(t *testing.T, s acptest.Setup, text, want, ran string, also ...acptest.Expectation) {
	t.Helper()
	s.UserConfig, s.Script = buildByDefault, runScript("touch made", text, want)
	env := acptest.Start(t, s)
	sid := env.NewSession()
	env.PromptAsync(sid, "make it")
	env.Await(append([]acptest.Expectation{
		acptest.TurnEndedWith(sid, sdk.StopReasonEndTurn),
		acptest.ToolCallStatus("r1", sdk.ToolCallStatusFailed),
	}, also...)...)
	if env.Exists("made") {
		t.Error(ran)
	}
}
