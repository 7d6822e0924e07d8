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
)

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
			calib := min(max(4000/answered[0], 0.5), 4)
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
