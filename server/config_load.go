package server

import (
	"context"
	"path/filepath"

	"github.com/agentls/agentls/host"
	"github.com/agentls/agentls/questions"
)

// isConfigFile reports whether path is one of the config files the host
// reads (the user's config.yaml, --config): saving it reloads the
// configuration, as saving .agentls.yaml does.
func (s *Server) isConfigFile(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	for _, f := range s.configFiles() {
		if host.SameFile(abs, f) {
			return true
		}
	}
	return false
}

// announceConfigLoad tells the user when a reload changed whether the
// configuration loads: model requests stop (with what to fix) or resume.
func (s *Server) announceConfigLoad(ctx context.Context, before, after error) {
	switch {
	case after != nil && (before == nil || before.Error() != after.Error()):
		s.notifyClient(ctx, "window/showMessage", map[string]any{"type": questions.MessageError, "message": "agentls: " + after.Error()})
	case after == nil && before != nil:
		s.notifyClient(ctx, "window/showMessage", map[string]any{"type": questions.MessageInfo,
			"message": "agentls: the configuration loads again; model requests resume"})
	}
}
