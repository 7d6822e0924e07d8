package agent

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/llm/kit"
	"github.com/agentls/agentls/agent/tokens"
	"github.com/agentls/agentls/agentproto"
)

func TestNoteOverflowLearnsFromRepeatedEvidence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		sizes []int
		want  int // the learned window (0: none)
	}{
		{"one overflow is no evidence", []int{9000}, 0},
		{"two at the same size", []int{9000, 9000}, 9000},
		{"the second a little larger", []int{9000, 9800}, 9000},
		{"the second smaller", []int{9000, 8100}, 8100},
		{"the second much larger", []int{9000, 20000}, 0},
		{"a spurious small one after a real one", []int{9000, 1500}, 0},
		{"a spurious small one, then real ones", []int{2000, 9000, 9100}, 9000},
		{"the window only shrinks", []int{9000, 9000, 12000, 12000}, 9000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Session{}
			for _, n := range tt.sizes {
				s.noteOverflow("llama3", n, 0)
			}
			if got := s.learned("llama3"); got != tt.want {
				t.Fatalf("learned window %d, want %d", got, tt.want)
			}
			if got := s.learned("qwen3"); got != 0 {
				t.Fatalf("another model learned a window of %d from llama3's overflows", got)
			}
		})
	}
}

// TestNoteOverflowLearnsAStatedWindow: two refusals stating the same window
// (within sameSize) teach it, whatever the requests' sizes; one teaches
// nothing, and neither do two stating different windows.
func TestNoteOverflowLearnsAStatedWindow(t *testing.T) {
	t.Parallel()
	type refusal struct{ size, stated int }
	tests := []struct {
		name     string
		refusals []refusal
		want     int
	}{
		{"one is no evidence", []refusal{{30000, 8000}}, 0},
		{"two stating one window", []refusal{{30000, 8000}, {12000, 8000}}, 8000},
		{"two stating about one window", []refusal{{30000, 8000}, {12000, 7600}}, 8000},
		{"two stating different windows", []refusal{{30000, 8000}, {12000, 4000}}, 0},
		{"the same size, a window stated", []refusal{{9000, 8000}, {9100, 8100}}, 8100},
		{"the same size, one stating", []refusal{{9000, 0}, {9100, 4000}}, 9000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Session{}
			for _, r := range tt.refusals {
				s.noteOverflow("llama3", r.size, r.stated)
			}
			if got := s.learned("llama3"); got != tt.want {
				t.Fatalf("learned window %d, want %d", got, tt.want)
			}
		})
	}
}

// TestStatedWindow: the window an endpoint stated, in the session's units.
func TestStatedWindow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		counts llm.ContextCounts
		size   int
		want   int
	}{
		{"none stated", llm.ContextCounts{}, 9000, 0},
		{"the window alone", llm.ContextCounts{Window: 8192}, 9000, 8192},
		{"the answer's tokens counted", llm.ContextCounts{Window: 8192, Completion: 1024}, 9000, 7168},
		{"all of it the answer's", llm.ContextCounts{Window: 8192, Completion: 8192}, 9000, 0},
		{"scaled to the estimate", llm.ContextCounts{Window: 8000, Prompt: 10000}, 5000, 4000},
		{"a count far from the estimate", llm.ContextCounts{Window: 8000, Prompt: 100000}, 1000, 2000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := statedWindow(tt.counts, tt.size); got != tt.want {
				t.Fatalf("statedWindow(%+v, %d) = %d, want %d", tt.counts, tt.size, got, tt.want)
			}
		})
	}
}

// TestCutWindow: only a count far below the estimate, and exactly what
// Ollama keeps of a prompt longer than its context, says the prompt was cut.
func TestCutWindow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		reported int
		raw      float64
		want     int
	}{
		{"newer Ollama: half the context and two", 2050, 9000, 4096},
		{"older Ollama: the context", 2048, 9000, 2048},
		{"a large context", 65536/2 + 2, 140000, 65536},
		{"a count near the estimate", 4098, 5000, 0},
		{"half the estimate is still a tokenizer's difference", 4098, 8196, 0},
		{"not what Ollama keeps", 2049, 9000, 0},
		{"no count", 0, 9000, 0},
		{"smaller than any context Ollama sets", 514, 9000, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cutWindow(tt.reported, tt.raw); got != tt.want {
				t.Fatalf("cutWindow(%d, %.0f) = %d, want %d", tt.reported, tt.raw, got, tt.want)
			}
		})
	}
}

// TestOverBudgetErrorAfterCuts: a window learned from cut prompts asks for a
// larger context on the server, not only model.context_window.
func TestOverBudgetErrorAfterCuts(t *testing.T) {
	t.Parallel()
	b := tokens.Budget{Window: 4096, Reserve: 512, Threshold: 0.85}
	limit := b.Limit()
	err := overBudgetError(limit+500, limit+100, pinnedPlan{}, b, limit, true)
	if !strings.Contains(err.Error(), "cut longer requests to fit a 4096-token window") || !strings.Contains(err.Error(), "OLLAMA_CONTEXT_LENGTH") {
		t.Fatalf("fixed part over a window learned from cuts: %v", err)
	}
}

func TestOverBudgetError(t *testing.T) {
	t.Parallel()
	b := tokens.Budget{Window: 8192, Reserve: 1024, Threshold: 0.85}
	limit := b.Limit()
	fixedErr := overBudgetError(limit+500, limit+100, pinnedPlan{}, b, limit, false)
	if errors.Is(fixedErr, llm.ErrContextExceeded) || !strings.Contains(fixedErr.Error(), "model.context_window") ||
		!strings.Contains(fixedErr.Error(), "tool definitions alone") {
		t.Fatalf("fixed part over the limit: %v", fixedErr)
	}
	planErr := overBudgetError(limit+500, limit+100, pinnedPlan{paths: []string{"plans/big.plan"}, tokens: 3000}, b, limit, false)
	if !strings.Contains(planErr.Error(), "plans/big.plan") || !strings.Contains(planErr.Error(), "about 3000") ||
		!strings.Contains(planErr.Error(), "shorten the plan") {
		t.Fatalf("a pinned plan that makes the fixed part pass the limit is not named: %v", planErr)
	}
	histErr := overBudgetError(limit+500, 2000, pinnedPlan{}, b, limit, false)
	if !errors.Is(histErr, llm.ErrContextExceeded) || !strings.Contains(histErr.Error(), "after compaction") {
		t.Fatalf("history over the limit: %v", histErr)
	}
}

// statingModel refuses, as an endpoint with a window of window tokens
// would, every turn request whose estimate passes it, saying so in
// numbers (the window and the request's tokens) as llama.cpp, vLLM and
// LM Studio do; it answers summary requests and the requests that fit,
// and records the turn requests' estimates.
type statingModel struct {
	window int
	mu     sync.Mutex
	sizes  []int
}

func (p *statingModel) Complete(_ context.Context, req llm.Request, _ func(llm.Event)) (llm.Response, error) {
	if strings.Contains(req.System, "hand-off summaries") {
		return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "SUMMARY of the earlier turns."}}, nil
	}
	n := int(tokens.EstimateRequest(req))
	p.mu.Lock()
	p.sizes = append(p.sizes, n)
	p.mu.Unlock()
	if n > p.window {
		return llm.Response{}, &kit.Error{StatusCode: 400, Message: "too long", ContextExceeded: true,
			Counts: llm.ContextCounts{Window: p.window, Prompt: n}}
	}
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "fine"}}, nil
}

// TestStatedWindowIsTheRetryTarget: a long session meets an endpoint whose
// window, a fraction of the request, it states in its refusal: the retry is
// compacted to fit that window at once (one refusal, one retry), where
// 90 %, 75 % and 60 % of the refused size would each have been refused.
func TestStatedWindowIsTheRetryTarget(t *testing.T) {
	t.Parallel()
	model := &statingModel{window: 6000}
	m, s := longSession(t, model)
	res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "go on"})
	if err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("Prompt = %+v, %v; want end_turn after one retry", res, err)
	}
	model.mu.Lock()
	sizes := model.sizes
	model.mu.Unlock()
	if len(sizes) != 2 || float64(sizes[0])*retryShares[len(retryShares)-1] <= float64(model.window) {
		t.Fatalf("turn request sizes %v against a %d-token window: want a request more than 1/%.1f of it refused and one retry",
			sizes, model.window, retryShares[len(retryShares)-1])
	}
}
