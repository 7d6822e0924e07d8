package agent

import (
	"context"
	"time"

	"github.com/agentls/agentls/agent/tokens"
	"github.com/agentls/agentls/agentproto"
)

// windowAskBound bounds the wait for the endpoint's report of a model's
// context window before a request: an endpoint that does not answer in
// time leaves the window known or configured.
const windowAskBound = 3 * time.Second

// WindowReporter is a provider whose endpoint can say a model's context
// window (agent/openai: vLLM, llama.cpp, LM Studio, Ollama, OpenRouter,
// Groq). model "" is the provider's default model.
type WindowReporter interface {
	// AskContextWindow asks the endpoint, unless it answered for good;
	// it returns when ctx ends at the latest.
	AskContextWindow(ctx context.Context, model string)
	// ContextWindow is the window reported and where it was read (0:
	// none); it does not block.
	ContextWindow(model string) (tokens int, source string)
}

// askWindow asks the endpoint for the context window of the model the
// session's next request goes to, within windowAskBound, unless the
// configuration gives that model's window (model.context_window: the
// user's word wins, and nothing is asked).
func (s *Session) askWindow(ctx context.Context) {
	mode := s.State().Mode
	s.m.askWindowOf(ctx, mode, s.requestModel(mode))
}

// askWindowOf asks the endpoint, within windowAskBound, for the context
// window of mode's model (or chosen; tokens.ModelOf) unless the
// configuration gives it; it returns that model and its configured window
// (0: none).
func (m *Manager) askWindowOf(ctx context.Context, mode agentproto.Mode, chosen string) (model string, configured int) {
	model, configured = tokens.ModelOf(m.config(), mode, chosen)
	if r, ok := m.Provider().(WindowReporter); ok && configured == 0 {
		ctx, cancel := context.WithTimeout(ctx, windowAskBound)
		defer cancel()
		r.AskContextWindow(ctx, model)
	}
	return model, configured
}

// reportedWindow is the context window the endpoint reported for model
// (tokens.Reported; 0 when none or the provider cannot ask).
func (m *Manager) reportedWindow(model string) (int, string) {
	if r, ok := m.Provider().(WindowReporter); ok {
		return r.ContextWindow(model)
	}
	return 0, ""
}

// configuredWindow is the context window build-mode requests to the
// configured model are budgeted by, asking the endpoint first (within
// windowAskBound) as a session would, and where it comes from (for
// agent/checkModel: the person checking the setup sees it).
func (m *Manager) configuredWindow(ctx context.Context) (int, string) {
	model, configured := m.askWindowOf(ctx, agentproto.ModeBuild, "")
	if configured > 0 {
		return configured, "model.context_window"
	}
	b := tokens.BudgetOf(m.config(), agentproto.ModeBuild, "", m.reportedWindow)
	switch _, known := tokens.KnownWindow(model); {
	case b.Reported != "":
		return b.Window, b.Reported
	case known:
		return b.Window, "known for the model's family"
	}
	return b.Window, "assumed: a model agentls does not know"
}
