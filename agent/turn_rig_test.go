package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// stepModel is a model driven by a Go function: each turn request (not a
// summary request) is answered by turn; a summary request by an honest
// summariser that hands back everything it was shown (so whatever the
// transcript holds survives the summary).
type stepModel struct {
	mu        sync.Mutex
	reqs      []llm.Request // every turn request, in order
	summaries []llm.Request // every summary request
	turn      func(n int, req llm.Request) (llm.Response, error)
}

func isSummaryRequest(req llm.Request) bool {
	return strings.Contains(req.System, "You write hand-off summaries")
}

func (p *stepModel) Complete(ctx context.Context, req llm.Request, _ func(llm.Event)) (llm.Response, error) {
	if isSummaryRequest(req) {
		p.mu.Lock()
		p.summaries = append(p.summaries, req)
		p.mu.Unlock()
		return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "Everything so far:\n" + req.Messages[0].Content},
			FinishReason: "stop"}, nil
	}
	p.mu.Lock()
	p.reqs = append(p.reqs, req)
	n := len(p.reqs) - 1
	p.mu.Unlock()
	return p.turn(n, req)
}

func (p *stepModel) requests() []llm.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]llm.Request(nil), p.reqs...)
}

func (p *stepModel) summaryRequests() []llm.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]llm.Request(nil), p.summaries...)
}

// requestText is everything a request shows the model: the system prompt
// (with any hand-off summary) and every message.
func requestText(req llm.Request) string {
	var b strings.Builder
	b.WriteString(req.System)
	for _, m := range req.Messages {
		b.WriteString("\n")
		b.WriteString(m.Content)
		for _, c := range m.ToolCalls {
			b.WriteString("\n" + c.Arguments)
		}
	}
	return b.String()
}

func lastUserText(req llm.Request) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == llm.RoleUser {
			return req.Messages[i].Content
		}
	}
	return ""
}

// lastIsTool reports whether the request's last message is a tool result
// (the model is mid-step).
func lastIsTool(req llm.Request) bool {
	return len(req.Messages) > 0 && req.Messages[len(req.Messages)-1].Role == llm.RoleTool
}

func callStep(id, name, args string) llm.Response {
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant,
		ToolCalls: []agentproto.ToolCall{{ID: id, Name: name, Arguments: args}}}, FinishReason: "tool_calls"}
}

func textStep(text string) llm.Response {
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: text}, FinishReason: "stop"}
}

// TestToolCallCutByMaxTokensIsSaidSo: the model writes a file in one call and
// its answer reaches max_tokens inside the call's arguments (finish_reason
// "length", the JSON cut off). Nothing was run, which is right; but the
// model (and the user) must learn why — the answer was cut at the output
// limit, so the content must go in smaller pieces. Today the model reads only
// "the arguments of write are not valid JSON …; call it again with a JSON
// object": it sends the same call again, is cut again, and the turn burns
// every request it may make (here 50).
func TestToolCallCutByMaxTokensIsSaidSo(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, nil)
	cut := `{"path":"big.go","content":"package big\n\nfunc Table() []int {\n\treturn []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1`
	model := &stepModel{turn: func(n int, req llm.Request) (llm.Response, error) {
		resp := callStep(fmt.Sprintf("w%d", n), "write", cut)
		resp.FinishReason = "length"
		return resp, nil
	}}
	m.Reconfigure(m.config(), model)
	s := newTestSession(t, m, "build")
	res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "write big.go"})
	if err != nil {
		t.Fatal(err)
	}
	var result string
	for _, msg := range s.Messages() {
		if msg.Role == llm.RoleTool {
			result = msg.Content
			break
		}
	}
	said := strings.Contains(result, "max_tokens") || strings.Contains(result, "output limit") || strings.Contains(result, "cut off")
	if !said {
		t.Fatalf("a write cut by max_tokens (finish_reason length): the turn made %d model requests and ended %s;\nthe model was told: %s",
			len(model.requests()), res.StopReason, result)
	}
}
