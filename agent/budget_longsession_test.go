package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/tokens"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
)

// TestOneOddUsageReportDoesNotStopTheSession: the endpoint's usage report of
// one answer is twice the truth (a gateway that adds a retried or fallback
// attempt's tokens, a server that reports total_tokens as prompt_tokens).
// The first report sets the session's calibration outright (no smoothing,
// up to 4×); at an 8k window the system prompt and the tool definitions
// then count as more than the request limit. Every later request
// is refused before it is sent ("the system prompt and the tool definitions
// alone are about N tokens … set model.context_window"), so no later usage
// report can ever correct the calibration: the session is stuck until
// agentls restarts, whatever the user does.
func TestOneOddUsageReportDoesNotStopTheSession(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, func(c *config.Config) { c.Model.ContextWindow = 8192 })
	model := &stepModel{}
	model.turn = func(n int, req llm.Request) (llm.Response, error) {
		truth := int(tokens.EstimateRequest(req))
		reported := truth
		if n == 0 {
			reported = 2 * truth // the one odd report
		}
		resp := textStep("ok")
		resp.Usage = llm.Usage{InputTokens: reported, OutputTokens: 1}
		return resp, nil
	}
	m.Reconfigure(m.config(), model)
	s := newTestSession(t, m, "build")
	var ends []string
	failed := 0
	for i := range 4 {
		res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: fmt.Sprintf("question %d", i)})
		if err != nil {
			t.Fatal(err)
		}
		ends = append(ends, fmt.Sprintf("prompt %d: %s %v", i, res.StopReason, res.Err))
		if i > 0 && res.StopReason != agentproto.StopEndTurn {
			failed++
		}
	}
	if failed == 3 {
		t.Fatalf("after one usage report twice the truth, no prompt of the session is sent again (%d requests in all):\n%s",
			len(model.requests()), strings.Join(ends, "\n"))
	}
}

// TestCalibrationNeverPutsTheFixedPartOverTheLimit: however many usage
// reports four times the truth the endpoint sends, the calibrated system
// prompt and tool definitions stay within the request limit, so the next
// request is still sent (and its report can correct the calibration).
func TestCalibrationNeverPutsTheFixedPartOverTheLimit(t *testing.T) {
	t.Parallel()
	m, _ := newTestManager(t, noTurns, &memEditor{}, func(c *config.Config) { c.Model.ContextWindow = 8192 })
	s := newTestSession(t, m, "build")
	req := s.modelRequest()
	raw := tokens.EstimateRequest(req)
	limit := s.budget().Limit()
	for i := range 5 {
		s.calibrate(req, raw, int(4*raw))
		if fixed := s.fixedTokens(req, ""); fixed >= limit {
			t.Fatalf("after %d reports 4× the truth the fixed part counts %d tokens, over the %d-token limit", i+1, fixed, limit)
		}
	}
	s.mu.Lock()
	calib := s.calib
	s.mu.Unlock()
	if calib <= 1 {
		t.Fatalf("calibration %v: reports above the estimate should still raise it", calib)
	}
}
