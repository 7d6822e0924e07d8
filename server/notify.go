package server

import (
	"context"
	"log/slog"

	"go.lsp.dev/protocol"

	"github.com/agentls/agentls/agent"
)

// The server is the agent's Editor.
var _ agent.Editor = (*Server)(nil)

// Update sends `agent/update`.
func (s *Server) Update(sessionID string, update any) {
	s.notifyClient(context.Background(), "agent/update", map[string]any{"sessionId": sessionID, "update": update})
}

// ModeChanged sends `agent/modeChanged`.
func (s *Server) ModeChanged(ev agent.ModeChange) {
	s.notifyClient(context.Background(), "agent/modeChanged", ev)
}

// Notify sends a plan-mode notify line as `window/logMessage` (Info).
func (s *Server) Notify(line string) {
	s.notifyClient(context.Background(), "window/logMessage", map[string]any{"type": 3, "message": line})
}

// ShowDocument asks the editor to open a file (`window/showDocument`), when
// it supports that.
func (s *Server) ShowDocument(ctx context.Context, abs string) error {
	s.mu.Lock()
	ok := s.caps.showDocument
	s.mu.Unlock()
	if !ok {
		return nil
	}
	var res struct {
		Success bool `json:"success"`
	}
	return protocol.Call(ctx, s.conn, "window/showDocument", map[string]any{"uri": pathToURI(abs), "takeFocus": true}, &res)
}

func (s *Server) notifyClient(ctx context.Context, method string, params any) {
	if err := s.conn.Notify(ctx, method, params); err != nil {
		slog.Debug("notify client", "method", method, "err", err)
	}
}
