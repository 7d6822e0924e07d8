package server

import (
	"fmt"
	"log/slog"
)

// warnLostDocument tells the user that agentls lost track of the buffer of
// path (uri as the editor named it): a didChange could not be applied, so
// the agent can neither read nor edit the document until the editor sends
// its whole text again (workspace.ErrBufferLost).
func (s *Server) warnLostDocument(path, uri string) {
	ws := s.workspace()
	if ws == nil {
		return
	}
	reason := ws.Overlay().Lost(path)
	if reason == "" {
		return // known again already
	}
	slog.Warn("editor buffer out of sync", "path", path, "reason", reason)
	name := uri
	if rel := ws.RelOf(path); rel != "" {
		name = rel
	}
	s.notifyClient(s.ctx, "window/showMessage", map[string]any{
		"type": 2, // Warning
		"message": fmt.Sprintf("agentls lost track of %s: the editor sent a change it could not apply (%s). "+
			"The agent will not read or edit this file until you save it (or close and reopen it).", name, reason),
	})
}
