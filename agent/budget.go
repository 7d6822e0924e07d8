package agent

import (
	"github.com/agentls/agentls/agent/tokens"
)

// budget is the budget of the model the session's requests go to in its
// current mode (requestModel; agent/tokens), with the window
// lowered to what repeated context overflows showed (noteOverflow).
func (s *Session) budget() tokens.Budget {
	mode := s.State().Mode
	b := tokens.BudgetOf(s.m.config(), mode, s.requestModel(mode))
	s.mu.Lock()
	learned := s.learnedWindow
	s.mu.Unlock()
	if learned > 0 && learned < b.Window {
		b.Window = learned
		b.Reserve = min(b.Reserve, learned/8)
	}
	return b
}
