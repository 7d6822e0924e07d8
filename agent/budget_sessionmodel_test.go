package agent

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/tokens"
	"github.com/agentls/agentls/config"
)

// sizingModel answers summary requests, and records the model and the
// calibrated-free estimate of every turn request.
type sizingModel struct {
	mu     sync.Mutex
	models []string
	sizes  []int
}

func (p *sizingModel) Complete(_ context.Context, req llm.Request, _ func(llm.Event)) (llm.Response, error) {
	if strings.Contains(req.System, "hand-off summaries") {
		return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "SUMMARY of the earlier turns."}}, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.models = append(p.models, req.Model)
	p.sizes = append(p.sizes, int(tokens.EstimateRequest(req)))
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "fine"}}, nil
}

// TestSessionModelWindowBoundsTheRequest: the configuration names a
// large-window model (gpt-4.1) and a small one (llama3, an 8192-token
// window: docs/sessions.md's table). The user switches this session's
// build model to llama3 (agent/setModel, /model): its requests now go to
// llama3, so they must be compacted to llama3's window before they are
// sent. Today the budget is still the configured model.name's (over a
// million tokens), and a request of some 30k tokens goes to an 8k model —
// which Ollama, the docs warn, silently cuts instead of refusing.
func TestSessionModelWindowBoundsTheRequest(t *testing.T) {
	t.Parallel()
	model := &sizingModel{}
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, func(c *config.Config) {
		c.Model.Name = "gpt-4.1"
		c.Model.PlanName = "llama3"
	})
	m.Reconfigure(m.config(), model)
	s := newTestSession(t, m, "build")
	appendLargeReads(s)
	if _, err := m.SetModel(context.Background(), s.ID(), "build", "llama3"); err != nil {
		t.Fatalf("SetModel: %v", err)
	}
	res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "go on"})
	if err != nil {
		t.Fatalf("Prompt: %v", err)
	}
	if len(model.sizes) == 0 {
		t.Fatalf("no turn request was sent (%+v)", res)
	}
	window := tokens.ContextWindow("llama3", 0)
	if model.models[0] != "llama3" {
		t.Fatalf("the turn's request went to %q, not the session's model llama3; the rig is wrong", model.models[0])
	}
	if model.sizes[0] > window {
		t.Fatalf("a request of about %d tokens was sent to llama3, whose context window is %d tokens: the budget is not the session's model's", model.sizes[0], window)
	}
}
