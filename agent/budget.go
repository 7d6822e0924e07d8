package agent

import (
	"github.com/agentls/agentls/agent/tokens"
	"github.com/agentls/agentls/agentproto"
)

// budget returns the budget of mode's model (agent/tokens).
func (m *Manager) budget(mode agentproto.Mode) tokens.Budget {
	return tokens.BudgetOf(m.config(), mode)
}

// budget is the budget of the session's current mode, with the window
// lowered to what repeated context overflows showed (noteOverflow).
func (s *Session) budget() tokens.Budget {
	b := s.m.budget(s.State().Mode)
	s.mu.Lock()
	learned := s.learnedWindow
	s.mu.Unlock()
	if learned > 0 && learned < b.Window {
		b.Window = learned
		b.Reserve = min(b.Reserve, learned/8)
	}
	return b
}
