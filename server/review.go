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
