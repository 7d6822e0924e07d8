package server

import "context"

// setReviewParams are agent/setReview's params.
type setReviewParams struct {
	SessionID string `json:"sessionId"`
	Review    string `json:"review"`
}

// setReview is agent/setReview {sessionId, review}: the session's review
// mode, "off" or "edits" (docs/review.md), persisted with the session.
func (s *Server) setReview(_ context.Context, p setReviewParams) (any, error) {
	info, err := s.manager().SetReview(p.SessionID, p.Review)
	if err != nil {
		return nil, rpcError(err)
	}
	return info, nil
}

// checkpointParams name a session's checkpoint (and a file of it).
type checkpointParams struct {
	SessionID string `json:"sessionId"`
	MessageID string `json:"messageId"`
	Path      string `json:"path"`
}

// changedFiles is agent/changedFiles {sessionId, messageId}: the files that
// differ now from the checkpoint taken before that message ("Edited
// store.go +17 −2"; Keep / Undo per file, docs/review.md).
func (s *Server) changedFiles(ctx context.Context, p checkpointParams) (any, error) {
	files, err := s.manager().ChangedFiles(ctx, p.SessionID, p.MessageID)
	if err != nil {
		return nil, rpcError(err)
	}
	return map[string]any{"files": files}, nil
}

// checkpointFile is agent/checkpointFile {sessionId, messageId, path}: the
// file as that checkpoint has it, for a diff against the file now.
func (s *Server) checkpointFile(_ context.Context, p checkpointParams) (any, error) {
	out, err := s.manager().CheckpointFile(p.SessionID, p.MessageID, p.Path)
	if err != nil {
		return nil, rpcError(err)
	}
	return out, nil
}
