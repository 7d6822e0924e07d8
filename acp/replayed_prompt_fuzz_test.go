package acp

import (
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// FuzzUnwrapReplayedPrompt: whatever the blocks, the prompt comes back
// unchanged or as one text block holding the first block's inner text, and
// only when every block is a replayed message or the continuation note.
func FuzzUnwrapReplayedPrompt(f *testing.F) {
	f.Add("<previous_user_message>/plans</previous_user_message>", "<system_context>Continuing from previous session with 1 recent user messages</system_context>")
	f.Add("<previous_user_message>a</previous_user_message>", "<previous_user_message>b</previous_user_message>")
	f.Add("<previous_user_message></previous_user_message>", "text")
	f.Add("<previous_user_message>", "</previous_user_message>")
	f.Fuzz(func(t *testing.T, a, b string) {
		in := []sdk.ContentBlock{sdk.TextBlock(a), sdk.TextBlock(b)}
		out := unwrapReplayedPrompt(in)
		if len(out) == 2 && out[0].Text.Text == a && out[1].Text.Text == b {
			return // unchanged
		}
		if len(out) != 1 || out[0].Text == nil {
			t.Fatalf("unwrapped to %d blocks", len(out))
		}
		inner := out[0].Text.Text
		if !strings.HasPrefix(a, replayOpen) || !strings.HasSuffix(a, replayClose) || a != replayOpen+inner+replayClose {
			t.Fatalf("unwrapped %q from a first block %q that is not a replayed message", inner, a)
		}
		second := strings.HasPrefix(b, replayOpen) && strings.HasSuffix(b, replayClose) && len(b) >= len(replayOpen)+len(replayClose) ||
			strings.HasPrefix(b, replayNote) && strings.HasSuffix(b, replayNoteEnd)
		if !second {
			t.Fatalf("unwrapped although the second block %q is the user's own text", b)
		}
	})
}
