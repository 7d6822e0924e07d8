package agent

import (
	"context"
	"time"

	"github.com/agentls/agentls/agent/tokens"
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
	r, ok := s.m.Provider().(WindowReporter)
	if !ok {
		return
	}
	mode := s.State().Mode
	model, configured := tokens.ModelOf(s.m.config(), mode, s.requestModel(mode))
	if configured > 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, windowAskBound)
	defer cancel()
	r.AskContextWindow(ctx, model)
}

// reportedWindow is the context window the endpoint reported for model
// (tokens.Reported; 0 when none or the provider cannot ask).
func (m *Manager) reportedWindow(model string) (int, string) {
	if r, ok := m.Provider().(WindowReporter); ok {
		return r.ContextWindow(model)
	}
	return 0, ""
}
