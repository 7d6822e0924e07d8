package server

import (
	"context"
	"fmt"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/workspace"
)

// requestChangesLens is the "Request changes" lens of a plan awaiting
// approval in session id, shown while the plan has open review comments
// (`> review:` under a step, docs/review.md).
func requestChangesLens(id, text string) (codeLens, bool) {
	open := workspace.OpenComments(workspace.PlanComments(text))
	if len(open) == 0 {
		return codeLens{}, false
	}
	title := "Request changes (1 comment)"
	if len(open) > 1 {
		title = fmt.Sprintf("Request changes (%d comments)", len(open))
	}
	return newLens(title, "agentls.requestChanges", map[string]string{"sessionId": id}), true
}

// requestChanges is agentls.requestChanges {sessionId}: the plan awaiting
// approval is rejected with its open review comments as the reason.
func (s *Server) requestChanges(ctx context.Context, p agentproto.SessionParams) (agentproto.Session, error) {
	info, err := s.manager().RequestChanges(ctx, p.SessionID)
	if err != nil {
		return agentproto.Session{}, rpcError(err)
	}
	return info, nil
}
