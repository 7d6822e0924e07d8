package acp

import (
	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/workspace"
)

// An ACP client reviews edits itself: each edit's diff is in its tool call
// and the client keeps or rejects it (docs/review.md). Review mode asks no
// question more here.
var _ agent.EditReviewer = (*editor)(nil)

// ReviewsEdits is true: the client shows every change's diff.
func (*editor) ReviewsEdits([]workspace.Change) bool { return true }
