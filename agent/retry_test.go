package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/tokens"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
)

// refusingModel refuses the turn requests as too long while refuse says so
// (given the request's number in the turn, from 0), answers summary
// requests, and records the turn requests' sizes (estimated, as the
// session estimates them) and last user messages.
type refusingModel struct {
	mu     sync.Mutex
	refuse func(n int) bool
	sizes  []int
	users  []string
}

func (p *refusingModel) Complete(_ context.Context, req llm.Request, _ func(llm.Event)) (llm.Response, error) {
	if strings.Contains(req.System, "hand-off summaries") {
		return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "SUMMARY of the earlier turns."}}, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.sizes)
	p.sizes = append(p.sizes, int(tokens.EstimateRequest(req)))
	last := ""
	for _, m := range req.Messages {
		if m.Role == llm.RoleUser {
			last = m.Content
		}
	}
	p.users = append(p.users, last)
	if p.refuse(n) {
		return llm.Response{}, fmt.Errorf("model request failed: 400: %w", llm.ErrContextExceeded)
	}
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "fine"}}, nil
}

// longSession is a build session whose history holds turns with large tool
// results (all compactable), with a huge configured window so that nothing
// is compacted before the endpoint refuses.
func longSession(t *testing.T, model llm.Provider) (*Manager, *Session) {
	t.Helper()
	return longSessionOn(t, model, &memEditor{})
}

// appendLargeReads adds twelve turns to s's history, each a read of
// f.txt whose result is 300 lines long (all compactable).
func appendLargeReads(s *Session) {
	for i := range 12 {
		id := fmt.Sprintf("c%d", i)
		s.append(
			llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("read file %d", i)},
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []agentproto.ToolCall{{ID: id, Name: "read", Arguments: `{"path":"f.txt"}`}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: id, Name: "read", Content: strings.Repeat(fmt.Sprintf("line %d of the file, some words here\n", i), 300)},
			llm.Message{Role: llm.RoleAssistant, Content: "read it"},
		)
	}
}

// longSessionOn is longSession telling ed what the session shows.
func longSessionOn(t *testing.T, model llm.Provider, ed *memEditor) (*Manager, *Session) {
	t.Helper()
	m, _ := newTestManager(t, noTurns, ed, func(c *config.Config) { c.Model.ContextWindow = 1_000_000 })
	m.Reconfigure(m.config(), model)
	s := newTestSession(t, m, "build")
	appendLargeReads(s)
	return m, s
}

// TestOverflowRetriesShrinkThenFail: the endpoint refuses the request and
// its first two retries; the third retry (compacted toward 60 % of the
// refused size) fits. Every retry is smaller than the request before it
// and carries the turn's prompt. When the endpoint refuses every request,
// the turn ends with an error after three retries, its prompt set aside.
func TestOverflowRetriesShrinkThenFail(t *testing.T) {
	t.Parallel()
	const prompt = "the turn's own prompt"
	model := &refusingModel{refuse: func(n int) bool { return n < 3 }}
	m, s := longSession(t, model)
	res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: prompt})
	if err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("Prompt = %+v, %v; want end_turn after the third retry", res, err)
	}
	if len(model.sizes) != 4 {
		t.Fatalf("%d requests (sizes %v), want the request and three retries", len(model.sizes), model.sizes)
	}
	for i, u := range model.users {
		if u != prompt {
			t.Fatalf("request %d's last user message is %q, not the turn's prompt", i, u)
		}
		if i > 0 && model.sizes[i] >= model.sizes[i-1] {
			t.Fatalf("retry %d is not smaller: sizes %v", i, model.sizes)
		}
	}

	always := &refusingModel{refuse: func(int) bool { return true }}
	m2, s2 := longSession(t, always)
	res, err = m2.Prompt(context.Background(), PromptRequest{SessionID: s2.ID(), Text: prompt})
	if err != nil || res.StopReason != agentproto.StopError || res.Err == nil || !strings.Contains(res.Err.Error(), "set aside") {
		t.Fatalf("Prompt against an endpoint that refuses everything = %+v, %v; want an error that sets the prompt aside", res, err)
	}
	if len(always.sizes) != 4 {
		t.Fatalf("%d requests, want the request and 3 retries", len(always.sizes))
	}
}

// reportingModel refuses the first refuse turn requests as too long,
// answers the others reporting reported prompt tokens, answers summary
// requests, and records the raw estimate of every turn request it
// answered.
type reportingModel struct {
	mu       sync.Mutex
	refuse   int
	reported int
	seen     int
	answered []float64 // raw estimates of the requests answered, in order
}

func (p *reportingModel) Complete(_ context.Context, req llm.Request, _ func(llm.Event)) (llm.Response, error) {
	if strings.Contains(req.System, "hand-off summaries") {
		return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "SUMMARY of the earlier turns."}}, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seen++
	if p.seen <= p.refuse {
		return llm.Response{}, fmt.Errorf("model request failed: 400: %w", llm.ErrContextExceeded)
	}
	p.answered = append(p.answered, tokens.EstimateRequest(req))
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "fine"},
		Usage: llm.Usage{InputTokens: p.reported, OutputTokens: 1}}, nil
}

// TestUsageUpdateEstimatesTheRequestSent: each request is estimated once
// (complete passes the estimate on), and what the turn reports is still
// the estimate of the request the endpoint answered: the calibration
// takes the reported prompt tokens against that request's estimate, and
// the usage update's context size is that estimate and the answer's,
// calibrated. After a refusal the answered request is the compacted
// retry, not the request first built.
func TestUsageUpdateEstimatesTheRequestSent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		refuse int
	}{
		{"answered at once", 0},
		{"answered after a refusal and a compaction", 1},
		{"answered after two refusals", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			model := &reportingModel{refuse: tc.refuse, reported: 4000}
			ed := &memEditor{}
			m, s := longSessionOn(t, model, ed)
			res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "go on"})
			if err != nil || res.StopReason != agentproto.StopEndTurn {
				t.Fatalf("Prompt = %+v, %v", res, err)
			}
			model.mu.Lock()
			answered := append([]float64(nil), model.answered...)
			model.mu.Unlock()
			if len(answered) != 1 {
				t.Fatalf("%d requests answered, want 1", len(answered))
			}
			// The first report is smoothed from 1 like every later one.
			calib := 0.5 + 0.5*min(max(4000/answered[0], 0.5), 4)
			want := int((answered[0]+tokens.EstimateMessage(llm.Message{Role: llm.RoleAssistant, Content: "fine"}))*calib + 0.5)
			var got []int
			ed.mu.Lock()
			for _, u := range ed.updates {
				if uu, ok := u.(agentproto.UsageUpdate); ok && uu.InputTokens == 4000 {
					got = append(got, uu.ContextTokens)
				}
			}
			ed.mu.Unlock()
			if len(got) != 1 || got[0] != want {
				t.Fatalf("the answer's usage update says context %v, want [%d] (the answered request's estimate %.1f, calibrated by %.3f)",
					got, want, answered[0], calib)
			}
			s.mu.Lock()
			gotCalib := s.calib
			s.mu.Unlock()
			if gotCalib != calib {
				t.Fatalf("calibration %v, want %v (4000 reported over the answered request's estimate %.1f)", gotCalib, calib, answered[0])
			}
		})
	}
}
