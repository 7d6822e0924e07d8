package acp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/acp/internal/acptest"
)

// cancelledPromptAnswer is met once agentls answers a session/prompt with
// stop reason cancelled.
func cancelledPromptAnswer() acptest.Expectation {
	return acptest.MessageMatching("a session/prompt answered cancelled", func(m acptest.Message) bool {
		var r struct {
			StopReason string `json:"stopReason"`
		}
		return m.Method == "" && json.Unmarshal(m.Params, &r) == nil && r.StopReason == string(sdk.StopReasonCancelled)
	})
}

// TestCancelRequestForAWaitingPrompt: a client that withdraws its
// session/prompt with $/cancel_request while the turn waits on the plan
// approval or a run permission (the SDK client does when the prompt's
// context ends) ends the turn as session/cancel would: the prompt is
// answered `cancelled`, the open session/request_permission is withdrawn
// ($/cancel_request from agentls), nothing is granted (the mode stays
// plan; the command does not run) and the session takes the next prompt.
func TestCancelRequestForAWaitingPrompt(t *testing.T) {
	t.Parallel()
	modeChange := acptest.Update("current_mode_update", "a mode change", nil)
	for _, tc := range []struct {
		name, config, script string
		granted              *acptest.Expectation // what must not happen (nil: nothing to see)
		call                 string
	}{
		{
			name: "plan approval",
			script: `
steps:
  - tool_calls: [{id: w, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: "# Goal\nSay hi.\n\n## Steps\n- [ ] Write hi.txt\n"}}]
  - tool_calls: [{id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}]
  - text: "Next turn."
`,
			granted: &modeChange,
			call:    "x",
		},
		{
			name: "run permission", config: buildByDefault,
			script: `
steps:
  - tool_calls: [{id: r1, name: run, args: {command: "touch made"}}]
  - text: "Next turn."
`,
			call: "r1",
		},
	} {
		for _, alone := range []bool{false, true} {
			name := tc.name + "/with session/cancel (the Go SDK client)"
			var rewrite func([]byte) []byte
			if alone {
				// A client that sends $/cancel_request alone (the protocol's
				// request cancel; the Go SDK client adds session/cancel).
				name = tc.name + "/$/cancel_request alone"
				rewrite = func(line []byte) []byte {
					if bytes.Contains(line, []byte(`"method":"session/cancel"`)) {
						return nil // a blank line, which agentls skips
					}
					return line
				}
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				env := acptest.Start(t, acptest.Setup{UserConfig: tc.config, Permit: holdPermission(t), Script: tc.script, Rewrite: rewrite})
				sid := env.NewSession()
				ctx, cancel := context.WithCancel(env.Ctx)
				defer cancel()
				env.PromptAsyncCtx(ctx, sid, "go")
				env.Await(acptest.PermissionRequested("the question", nil))
				cancel() // the SDK client sends $/cancel_request for the prompt
				env.Await(cancelledPromptAnswer(), acptest.Received("$/cancel_request"), acptest.ToolCallStatus(tc.call, sdk.ToolCallStatusFailed))
				if tc.granted != nil {
					env.Await(acptest.Not(*tc.granted))
				}
				if env.Exists("made") {
					t.Error("the withdrawn command ran")
				}
				if stop := env.MustPrompt(sid, "again"); stop != sdk.StopReasonEndTurn {
					t.Errorf("the next prompt ended %s, want end_turn", stop)
				}
				if tc.granted != nil {
					env.Await(acptest.Not(*tc.granted))
				}
			})
		}
	}
}
