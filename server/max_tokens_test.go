package server_test

import (
	"strings"
	"testing"

	"github.com/agentls/agentls/server/internal/lsptest"
)

// cutOffScript answers once with text the endpoint cut off at its output
// token limit (finish_reason "length").
const cutOffScript = `
name: cut-off
steps:
  - text: "The first half of the answer, cut off in the mid"
    finish_reason: length
`

// TestCutOffAnswerStopsMaxTokens: an answer the model's output token limit
// cut off ends the turn with stopReason max_tokens, its text as it came —
// not end_turn, which showed a truncated answer as complete. Our plugins
// get the stop reason (agent/prompt's result); a plain editor's final
// message says it was cut off.
func TestCutOffAnswerStopsMaxTokens(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		plain bool
	}{{"plugin", false}, {"plain editor", true}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			setup := lsptest.Setup{Script: cutOffScript}
			if tc.plain {
				setup.Caps = lsptest.PlainCaps()
			}
			h := lsptest.Start(t, setup)
			s := h.NewSession("plan")
			var pr struct {
				StopReason string `json:"stopReason"`
				Text       string `json:"text"`
			}
			if err := h.Editor.Call(h.Ctx, "agent/prompt", map[string]any{"sessionId": s.SessionID, "text": "explain"}, &pr); err != nil {
				t.Fatal(err)
			}
			if pr.StopReason != "max_tokens" || pr.Text != "The first half of the answer, cut off in the mid" {
				t.Fatalf("prompt result = %+v, want max_tokens with the text as it came", pr)
			}
			if tc.plain {
				shown := h.AwaitShown("cut off in the mid")
				if shown.Type != 2 || !strings.Contains(shown.Message, "cut off: the model reached its output token limit") {
					t.Fatalf("final message = %+v, want a warning that says the answer was cut off", shown)
				}
			}
		})
	}
}
