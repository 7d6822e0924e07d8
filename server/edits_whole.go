package server

import (
	"context"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/internal/lspwire"
)

// applyWhole sends every change of req as one `workspace/applyEdit` (one
// Undo in the editor brings the state before it back), when the editor
// takes documentChanges and each change would go to it; otherwise it
// applies nothing and returns agent.ErrNotWhole (the caller writes the
// changes on disk). The guard's last check runs on the whole edit.
func (s *Server) applyWhole(ctx context.Context, req agent.ApplyRequest) error {
	s.mu.Lock()
	docChanges := s.caps.documentChanges
	s.mu.Unlock()
	if !docChanges || len(req.Changes) == 0 {
		return agent.ErrNotWhole
	}
	var edit lspwire.WorkspaceEdit
	for _, c := range req.Changes {
		if s.routeOf(c) != routeClient {
			return agent.ErrNotWhole
		}
		edit.DocumentChanges = append(edit.DocumentChanges, s.workspaceEdit(c).DocumentChanges...)
	}
	if err := s.sendEdit(ctx, req, edit, ""); err != nil {
		return err
	}
	for _, c := range req.Changes {
		s.appliedByEditor(c) // edits_save.go
	}
	return nil
}
