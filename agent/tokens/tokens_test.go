package tokens

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
)

func TestContextWindow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		model      string
		configured int
		want       int
	}{
		{"gpt-4.1", 0, 1_047_576},
		{"gpt-4.1-mini", 0, 1_047_576},
		{"gpt-4o-2024-08-06", 0, 128_000},
		{"gpt-4", 0, 8_192},
		{"openai/o3-mini", 0, 200_000},
		{"claude-sonnet-4", 0, 200_000},
		{"llama3.1:8b", 0, 131_072},
		{"llama3:8b", 0, 8_192},
		{"Qwen2.5-Coder-7B-Instruct", 0, 32_768},
		{"my-finetune", 0, DefaultContextWindow},
		{"gpt-4.1", 50_000, 50_000},
	}
	for _, tt := range tests {
		if got := ContextWindow(tt.model, tt.configured); got != tt.want {
			t.Errorf("ContextWindow(%q, %d) = %d, want %d", tt.model, tt.configured, got, tt.want)
		}
	}
}

// TestEstimateText keeps the character-class estimate near the usual rules
// of thumb of BPE tokenizers (about four characters a token for English
// prose, shorter pieces for code and JSON, about one token a character for
// CJK text), within 40%: it is a bound on gross errors, the endpoint's
// reported usage calibrates the estimate per session.
func TestEstimateText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text   string
		tokens float64
	}{
		{"The quick brown fox jumps over the lazy dog.", 10},
		{"func (s *Session) compact(ctx context.Context, force bool) (compaction, error) {", 22},
		{`{"success":true,"result":{"path":"main.go","start_line":1}}`, 19},
		{strings.Repeat("日本語のテキスト", 4), 32},
	}
	for _, tt := range tests {
		got := EstimateText(tt.text)
		if got < tt.tokens*0.6 || got > tt.tokens*1.4 {
			t.Errorf("EstimateText(%q) = %.1f, want about %.0f", tt.text, got, tt.tokens)
		}
	}
}

// TestBudgetOf: plan mode uses plan_name's window when a plan model is
// set, and the threshold and the answer's reserve shape the limit.
func TestBudgetOf(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	cfg.Model.Name, cfg.Model.ContextWindow = "gpt-4o", 0
	cfg.Model.PlanName, cfg.Model.PlanContextWindow = "llama3.1:8b", 16_000
	cfg.Compaction.Threshold = 0.5
	cfg.Model.MaxTokens = 2_000
	if b := BudgetOf(cfg, agentproto.ModeBuild, "", nil); b.Window != 128_000 || b.Reserve != 2_000 || b.Limit() != 63_000 {
		t.Errorf("build budget = %+v, limit %d", b, b.Limit())
	}
	if b := BudgetOf(cfg, agentproto.ModePlan, "", nil); b.Window != 16_000 || b.Limit() != 7_000 {
		t.Errorf("plan budget = %+v, limit %d", b, b.Limit())
	}
	cfg.Model.PlanName = ""
	if b := BudgetOf(cfg, agentproto.ModePlan, "", nil); b.Window != 128_000 {
		t.Errorf("plan budget without a plan model = %+v", b)
	}
	cfg.Compaction.Threshold = 0
	cfg.Model.MaxTokens = 0
	if b := BudgetOf(cfg, agentproto.ModeBuild, "llama3", nil); b.Window != 8_192 {
		t.Errorf("a session's llama3: window %d, want its family's 8192", b.Window)
	}
	if b := BudgetOf(cfg, agentproto.ModeBuild, "my-local-model", nil); b.Window != BudgetOf(cfg, agentproto.ModeBuild, "", nil).Window {
		t.Errorf("a session's unknown model: window %d, want the configured model's", b.Window)
	}
	if b := BudgetOf(cfg, agentproto.ModeBuild, "", nil); b.Threshold != 0.85 || b.Reserve != 8192 {
		t.Errorf("default threshold and reserve = %+v", b)
	}
}

// TestEstimateTextMemo: a long string's estimate is the count's, whether
// it comes from the memo or not, and the memo keeps no more than
// memoMaxBytes of strings.
func TestEstimateTextMemo(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("func Handler(w http.ResponseWriter) { serve(w) } // ünïcode ✓\n", 40)
	for i := range 3 { // counted, then from the memo
		if got, want := EstimateText(long), countTokens(long); got != want {
			t.Fatalf("call %d: EstimateText = %v, countTokens = %v", i, got, want)
		}
	}
	chunk := strings.Repeat("x", 1<<20)
	for i := range 40 { // 40 MiB of distinct strings through a 16 MiB memo
		EstimateText(chunk + strings.Repeat("y", i))
	}
	textEstimates.Lock()
	kept := textEstimates.bytes
	textEstimates.Unlock()
	if kept > memoMaxBytes {
		t.Fatalf("the memo keeps %d bytes of strings, over its bound %d", kept, memoMaxBytes)
	}
}

// BenchmarkEstimateRequest estimates a 300-turn history (about 1.2 MB) as
// every request does: the memo makes the repeats cheap.
func BenchmarkEstimateRequest(b *testing.B) {
	var req llm.Request
	for i := range 1200 {
		req.Messages = append(req.Messages, llm.Message{Role: "tool", Content: strings.Repeat(fmt.Sprintf("line %d of a tool result\n", i), 40)})
	}
	b.ResetTimer()
	for b.Loop() {
		EstimateRequest(req)
	}
}

// TestEstimateToolsMemo: a tool set's estimate is its count whether it
// comes from the memo or not, and a set whose text changed (even in place,
// in the same schema bytes) is counted again.
func TestEstimateToolsMemo(t *testing.T) {
	t.Parallel()
	specs := benchTools(12)
	count := func(specs []llm.ToolSpec) float64 {
		n := 3.0
		for _, s := range specs {
			n += 8 + countTokens(s.Name) + countTokens(s.Description) + countTokens([]byte(s.Parameters))
		}
		return n
	}
	req := llm.Request{Tools: specs}
	for i := range 3 {
		if got, want := EstimateFixed(req), count(specs); got != want {
			t.Fatalf("call %d: EstimateFixed = %v, want %v", i, got, want)
		}
	}
	other := slices.Clone(specs)
	other[3].Description += " And one more sentence, of nine tokens or so."
	if got, want := EstimateFixed(llm.Request{Tools: other}), count(other); got != want {
		t.Fatalf("a changed description: EstimateFixed = %v, want %v", got, want)
	}
	copy(specs[5].Parameters, bytes.Repeat([]byte("!"), 40)) // the same bytes, changed in place
	if got, want := EstimateFixed(req), count(specs); got != want {
		t.Fatalf("a schema changed in place: EstimateFixed = %v, want %v", got, want)
	}
}

// benchTools is n tool definitions the size of agentls's own.
func benchTools(n int) []llm.ToolSpec {
	out := make([]llm.ToolSpec, n)
	for i := range out {
		out[i] = llm.ToolSpec{
			Name:        fmt.Sprintf("tool_%d", i),
			Description: strings.Repeat(fmt.Sprintf("Tool %d reads the workspace and says what it found. ", i), 4),
			Parameters:  []byte(fmt.Sprintf(`{"type":"object","properties":{"path":{"type":"string","description":"%s"},"limit":{"type":"integer","minimum":0}},"required":["path"]}`, strings.Repeat("a path relative to the root ", 10))),
		}
	}
	return out
}

// BenchmarkEstimateFixed estimates a request's system prompt and 16 tool
// definitions, as every request does about three times.
func BenchmarkEstimateFixed(b *testing.B) {
	req := llm.Request{System: strings.Repeat("You are a careful coding agent. ", 100), Tools: benchTools(16)}
	for b.Loop() {
		EstimateFixed(req)
	}
}
