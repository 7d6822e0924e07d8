package server

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"

	"go.lsp.dev/protocol"
)

// progressSeq numbers work-done progress tokens.
var progressSeq atomic.Int64

// Progress shows a running turn's activity with LSP work-done progress
// (`window/workDoneProgress/create`, then `$/progress` begin/report/end),
// when the client supports it. An empty message ends it.
func (s *Server) Progress(sessionID, message string) {
	// One at a time, held across the create request, so that no report or
	// end can overtake its begin.
	s.progressMu.Lock()
	defer s.progressMu.Unlock()
	s.mu.Lock()
	if !s.caps.workDoneProgress {
		s.mu.Unlock()
		return
	}
	if s.progress == nil {
		s.progress = map[string]string{}
	}
	token, running := s.progress[sessionID]
	switch {
	case message == "" && !running:
		s.mu.Unlock()
		return
	case message == "":
		delete(s.progress, sessionID)
		s.mu.Unlock()
		s.notifyClient(context.Background(), "$/progress", map[string]any{"token": token, "value": map[string]any{"kind": "end"}})
		return
	case running:
		s.mu.Unlock()
		s.notifyClient(context.Background(), "$/progress", map[string]any{"token": token, "value": map[string]any{"kind": "report", "message": message}})
		return
	}
	token = fmt.Sprintf("agentls-%d", progressSeq.Add(1))
	s.progress[sessionID] = token
	s.mu.Unlock()
	if err := protocol.Call(context.Background(), s.conn, "window/workDoneProgress/create", map[string]any{"token": token}, nil); err != nil {
		slog.Debug("work done progress", "err", err)
		return
	}
	s.notifyClient(context.Background(), "$/progress", map[string]any{"token": token, "value": map[string]any{
		"kind": "begin", "title": "agentls", "message": message, "cancellable": false,
	}})
}
