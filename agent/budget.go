package agent

import (
	"github.com/agentls/agentls/agent/tokens"
)

// budget is the budget of the model the session's requests go to in its
// current mode (requestModel; agent/tokens), with the window
// lowered to what repeated context overflows showed (noteOverflow).
func (s *Session) budget() tokens.Budget {
	mode := s.State().Mode
	model := s.requestModel(mode)
	b := tokens.BudgetOf(s.m.config(), mode, model)
	learned := s.learned(model)
	if learned > 0 && learned < b.Window {
		b.Window = learned
		b.Reserve = min(b.Reserve, learned/8)
	}
	return b
}
