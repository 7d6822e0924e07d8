package acp_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/acp/internal/acptest"
)

// fastNoteIn is met once a tool_call_update of a call whose id starts with
// prefix carries the fast-answer note for option, saying outcome.
func fastNoteIn(prefix, option, outcome string) acptest.Expectation {
	return acptest.Update("tool_call_update", "the note on "+prefix+"…", func(u sdk.SessionUpdate) bool {
		if !strings.HasPrefix(string(u.ToolCallUpdate.ToolCallId), prefix) {
			return false
		}
		for _, c := range u.ToolCallUpdate.Content {
			if c.Content != nil && c.Content.Content.Text != nil {
				t := c.Content.Content.Text.Text
				if strings.HasPrefix(t, "answered by the client in ") && strings.Contains(t, " ms ("+option+"), faster than a person decides: "+outcome) &&
					strings.Contains(t, "the client answered by itself") && !strings.Contains(t, "check the client") {
					return true
				}
			}
		}
		return false
	})
}

// anyFastNote is met once any update names a client's own answer.
var anyFastNote = acptest.ParamsContaining("session/update", "answered by the client in ")

// TestACPAnswerFasterThanAPerson: on the ACP face, a client answering at
// once (an auto-approve setting; avante.nvim after one "Always allow"
// click) is named in the asking tool call's content when it allows, and
// what outlasts the call is not granted: a run allowed once runs ("for
// this call only"); a run allowed "always" runs once and saves no rule
// (the same command is asked again); the workspace trust question's
// "Trust" trusts nothing (its tool call fails saying so, the widening keys
// stay ignored and the next prompt asks again). A refusal is not named.
func TestACPAnswerFasterThanAPerson(t *testing.T) {
	t.Parallel()
	const twoRuns = `
steps:
  - tool_calls: [{id: r1, name: run, args: {command: "touch made"}}]
  - tool_calls: [{id: r2, name: run, args: {command: "touch made"}}]
  - text: "Done."
`
	trustFile := map[string]string{".agentls.yaml": "run: {allow: ['touch *']}\n"}
	for _, tc := range []struct {
		name, option, call, outcome string
		files                       map[string]string
		// asks is how many run permission requests the turn makes.
		asks int32
	}{
		{"run allowed", "allow_once", "r1", "allowed for this call only", nil, 2},
		{"run allowed always", "allow_always", "r1", "allowed once, not always (no rule is saved)", nil, 2},
		{"run rejected", "reject_once", "r1", "", nil, 2},
		{"trust given", "allow_always", "trust-", "not trusted this time (the question comes again)", trustFile, 2},
		{"trust refused", "reject_once", "trust-", "", trustFile, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var runAsks, trustAsks atomic.Int32
			env := acptest.Start(t, acptest.Setup{UserConfig: buildByDefault, Files: tc.files, Script: twoRuns + `  - text: "Again."
`, AnswerAtOnce: true,
				Permit: func(ctx context.Context, p sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
					if strings.HasPrefix(string(p.ToolCall.ToolCallId), "trust-") {
						trustAsks.Add(1)
					} else {
						runAsks.Add(1)
					}
					return acptest.Choose(tc.option)(ctx, p)
				}})
			sid := env.NewSession()
			env.PromptAsync(sid, "make it")
			if tc.outcome == "" {
				env.Await(acptest.TurnEnded(sid))
				env.Await(acptest.Not(anyFastNote))
			} else {
				env.Await(acptest.TurnEnded(sid), fastNoteIn(tc.call, tc.option, tc.outcome))
			}
			if got := runAsks.Load(); got != tc.asks {
				t.Errorf("%d run permission requests, want %d (an \"always\" answered at once saves no rule; an untrusted run.allow allows nothing)", got, tc.asks)
			}
			if tc.files == nil {
				return
			}
			// The next prompt asks the trust question again after the
			// client's own "Trust"; after a person's "Don't trust", not.
			env.MustPrompt(sid, "again")
			want := int32(1)
			if tc.option == "allow_always" {
				want = 2
			}
			if got := trustAsks.Load(); got != want {
				t.Errorf("the trust question was asked %d times, want %d", got, want)
			}
		})
	}
}
