package server

import (
	"context"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/protoconv"
)

// setReview is agent/setReview {sessionId, review}: the session's review
// mode, "off" or "edits" (docs/review.md), persisted with the session.
func (s *Server) setReview(_ context.Context, p agentproto.SetReviewParams) (agentproto.ReviewInfo, error) {
	info, err := s.manager().SetReview(p.SessionID, p.Review)
	if err != nil {
		return agentproto.ReviewInfo{}, rpcError(err)
	}
	return agentproto.ReviewInfo{SessionID: info.SessionID, Review: info.Review}, nil
}

// changedFiles is agent/changedFiles {sessionId, messageId}: the files that
// differ now from the checkpoint taken before that message ("Edited
// store.go +17 −2"; Keep / Undo per file, docs/review.md).
func (s *Server) changedFiles(ctx context.Context, p agentproto.CheckpointParams) (agentproto.ChangedFilesResult, error) {
	files, err := s.manager().ChangedFiles(ctx, p.SessionID, p.MessageID)
	if err != nil {
		return agentproto.ChangedFilesResult{}, rpcError(err)
	}
	return protoconv.ChangedFiles(files), nil
}

// checkpointFile is agent/checkpointFile {sessionId, messageId, path}: the
// file as that checkpoint has it, for a diff against the file now.
func (s *Server) checkpointFile(_ context.Context, p agentproto.CheckpointFileParams) (agentproto.CheckpointFileText, error) {
	out, err := s.manager().CheckpointFile(p.SessionID, p.MessageID, p.Path)
	if err != nil {
		return agentproto.CheckpointFileText{}, rpcError(err)
	}
	return protoconv.CheckpointFileText(out), nil
}
