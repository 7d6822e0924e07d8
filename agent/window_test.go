package agent

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/tokens"
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
				s.noteOverflow("llama3", n)
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

func TestOverBudgetError(t *testing.T) {
	t.Parallel()
	b := tokens.Budget{Window: 8192, Reserve: 1024, Threshold: 0.85}
	limit := b.Limit()
	fixedErr := overBudgetError(limit+500, limit+100, pinnedPlan{}, b, limit)
	if errors.Is(fixedErr, llm.ErrContextExceeded) || !strings.Contains(fixedErr.Error(), "model.context_window") ||
		!strings.Contains(fixedErr.Error(), "tool definitions alone") {
		t.Fatalf("fixed part over the limit: %v", fixedErr)
	}
	planErr := overBudgetError(limit+500, limit+100, pinnedPlan{paths: []string{"plans/big.plan"}, tokens: 3000}, b, limit)
	if !strings.Contains(planErr.Error(), "plans/big.plan") || !strings.Contains(planErr.Error(), "about 3000") ||
		!strings.Contains(planErr.Error(), "shorten the plan") {
		t.Fatalf("a pinned plan that makes the fixed part pass the limit is not named: %v", planErr)
	}
	histErr := overBudgetError(limit+500, 2000, pinnedPlan{}, b, limit)
	if !errors.Is(histErr, llm.ErrContextExceeded) || !strings.Contains(histErr.Error(), "after compaction") {
		t.Fatalf("history over the limit: %v", histErr)
	}
}
