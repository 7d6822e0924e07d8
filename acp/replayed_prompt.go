package acp

import (
	"log/slog"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
)

// avante.nvim sends every prompt of a session it already has as the user's
// recent messages replayed, newest first, each in a text block of its own
// ("<previous_user_message>…</previous_user_message>"), followed by a note
// ("<system_context>Continuing from previous session with N recent user
// messages</system_context>"). agentls keeps the session's history itself:
// the older messages are repeats, and the wrapping would hide a slash
// command. Such a prompt is read as its newest message alone.

const (
	replayOpen    = "<previous_user_message>"
	replayClose   = "</previous_user_message>"
	replayNote    = "<system_context>Continuing from previous session with "
	replayNoteEnd = "</system_context>"
)

// unwrapReplayedPrompt returns the newest message of a prompt made only of
// replayed user messages (and the continuation note), as one text block;
// any other prompt comes back as it is.
func unwrapReplayedPrompt(blocks []sdk.ContentBlock) []sdk.ContentBlock {
	newest, replayed := "", 0
	for _, b := range blocks {
		if b.Text == nil {
			return blocks
		}
		t := b.Text.Text
		switch {
		case strings.HasPrefix(t, replayOpen) && strings.HasSuffix(t, replayClose) && len(t) >= len(replayOpen)+len(replayClose):
			if replayed == 0 {
				newest = t[len(replayOpen) : len(t)-len(replayClose)]
			}
			replayed++
		case strings.HasPrefix(t, replayNote) && strings.HasSuffix(t, replayNoteEnd):
		default:
			return blocks
		}
	}
	if replayed == 0 {
		return blocks
	}
	slog.Debug("acp: a prompt of replayed user messages (avante.nvim): taking the newest", "messages", replayed)
	return []sdk.ContentBlock{sdk.TextBlock(newest)}
}
