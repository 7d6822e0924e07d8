package agent

import (
	"github.com/agentls/agentls/agent/tokens"
)

// budget is the budget of the model the session's requests go to in its
// current mode (requestModel; agent/tokens), its window the configured
// one, else the one the endpoint reported (askWindow), else the model's
// known one, lowered to what repeated context overflows showed
// (noteOverflow).
func (s *Session) budget() tokens.Budget {
	mode := s.State().Mode
	model := s.requestModel(mode)
	b := tokens.BudgetOf(s.m.config(), mode, model, s.m.reportedWindow)
	learned := s.learned(model)
	if learned > 0 && learned < b.Window {
		b.Window = learned
		b.Reserve = min(b.Reserve, learned/8)
		b.Reported = ""
	}
	return b
}
