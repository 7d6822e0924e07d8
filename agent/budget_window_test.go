package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agentls/agentls/agent/openai"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/fakeopenai"
)

// TestPlanModelWithASmallWindowIsNotAskedForMoreThanItHolds: the build model
// has a large window and model.max_tokens is 8192 (host/providers.go passes
// it to every request); plan mode runs on a small local model served by vLLM
// with an 8192-token window (model.plan_name, model.plan_context_window).
// agentls's budget for the plan model knows the answer cannot have 8192
// tokens (the reserve is cut to an eighth of the window), but the request
// still asks for max_tokens 8192, and vLLM refuses any request whose prompt
// plus max_tokens pass its window ("This model's maximum context length is
// 8192 tokens. However, you requested … (… in the messages, 8192 in the
// completion)"). Every plan-mode prompt fails, taken for a context overflow
// and set aside.
func TestPlanModelWithASmallWindowIsNotAskedForMoreThanItHolds(t *testing.T) {
	t.Parallel()
	windows := map[string]int{"big-model": 131072, "small-model": 8192}
	fake := fakeopenai.New(fakeopenai.Options{Reply: func(r fakeopenai.Request) fakeopenai.Reply {
		var body struct {
			MaxTokens           int `json:"max_tokens"`
			MaxCompletionTokens int `json:"max_completion_tokens"`
		}
		_ = json.Unmarshal(r.Body, &body)
		prompt, out := fakeopenai.Tokens(len(r.Body)), max(body.MaxTokens, body.MaxCompletionTokens)
		if w := windows[r.Model]; prompt+out > w {
			return fakeopenai.Reply{Status: 400, ErrorBody: fmt.Sprintf(`{"object":"error","message":"This model's maximum context length is %d tokens. However, you requested %d tokens (%d in the messages, %d in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}`,
				w, prompt+out, prompt, out)}
		}
		return fakeopenai.Reply{Text: "here is a first idea"}
	}})
	t.Cleanup(fake.Close)
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, func(c *config.Config) {
		c.Model.Name, c.Model.ContextWindow, c.Model.MaxTokens = "big-model", 131072, 8192
		c.Model.PlanName, c.Model.PlanContextWindow = "small-model", 8192
	})
	cfg := m.config()
	// As host/providers.go builds it.
	p, err := openai.New(openai.Config{BaseURL: fake.URL, Model: cfg.Model.Name, MaxTokens: cfg.Model.MaxTokens, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	m.Reconfigure(cfg, p)
	s := newTestSession(t, m, "plan")
	res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "let us plan a small change"})
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != agentproto.StopEndTurn {
		reqs := fake.Requests()
		t.Fatalf("a first plan-mode prompt on the 8192-token plan model ended %s after %d requests: %v", res.StopReason, len(reqs), res.Err)
	}
}
