package acp_test

import (
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/acp/internal/acptest"
)

// fastNoteIn is met once a tool_call_update of a call whose id starts with
// prefix carries the fast-answer note for option.
func fastNoteIn(prefix, option string) acptest.Expectation {
	return acptest.Update("tool_call_update", "the note on "+prefix+"…", func(u sdk.SessionUpdate) bool {
		if !strings.HasPrefix(string(u.ToolCallUpdate.ToolCallId), prefix) {
			return false
		}
		for _, c := range u.ToolCallUpdate.Content {
			if c.Content != nil && c.Content.Content.Text != nil {
				t := c.Content.Content.Text.Text
				if strings.HasPrefix(t, "answered by the client in ") && strings.Contains(t, " ms ("+option+"): faster than a person decides") {
					return true
				}
			}
		}
		return false
	})
}

// TestACPAnswerFasterThanAPerson: on the ACP face, a client answering at
// once is named in the asking tool call's content when it allows — the
// run permission (its result) and the workspace trust question (its own
// tool call, which lost the note before) — and not when it refuses.
func TestACPAnswerFasterThanAPerson(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, option, call string
		files              map[string]string
	}{
		{"run allowed", "allow_once", "r1", nil},
		{"run rejected", "reject_once", "r1", nil},
		{"trust given", "allow_always", "trust-", map[string]string{".agentls.yaml": "run: {allow: ['touch *']}\n"}},
		{"trust refused", "reject_once", "trust-", map[string]string{".agentls.yaml": "run: {allow: ['touch *']}\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := acptest.Start(t, acptest.Setup{UserConfig: buildByDefault, Permit: acptest.Choose(tc.option), Files: tc.files, Script: `
steps:
  - tool_calls: [{id: r1, name: run, args: {command: "touch made"}}]
  - text: "Done."
`})
			sid := env.NewSession()
			env.PromptAsync(sid, "make it")
			note := fastNoteIn(tc.call, tc.option)
			if strings.HasPrefix(tc.option, "allow") {
				env.Await(acptest.TurnEnded(sid), note)
				return
			}
			env.Await(acptest.TurnEnded(sid))
			env.Await(acptest.Not(note))
		})
	}
}
