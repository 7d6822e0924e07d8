package acp_test

import (
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestCutOffAnswerStopsMaxTokens: a turn the model's output token limit
// ended (finish_reason "length") answers ACP's max_tokens (the schema:
// "The turn ended because the agent reached the maximum number of
// tokens"), not end_turn ("The turn ended successfully"), which showed a
// truncated answer as complete. Found by the ACP audit helper.
func TestCutOffAnswerStopsMaxTokens(t *testing.T) {
	t.Parallel()
	r := newRig(t, setup{script: "steps:\n  - text: \"The first half of the answer, cut off in the mid\"\n    finish_reason: length\n"})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "explain it"); stop != sdk.StopReasonMaxTokens {
		t.Errorf("stopReason %q for an answer cut off at the token limit, want %q", stop, sdk.StopReasonMaxTokens)
	}
}
