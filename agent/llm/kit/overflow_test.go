package kit

import (
	"testing"

	"github.com/agentls/agentls/agent/llm"
)

// TestOverflowCounts: the numbers each endpoint's overflow error states.
func TestOverflowCounts(t *testing.T) {
	tests := []struct {
		name  string
		texts []string
		want  llm.ContextCounts
	}{
		{"OpenAI", []string{"context_length_exceeded", "This model's maximum context length is 8192 tokens. However, your messages resulted in 9100 tokens. Please reduce the length of the messages."},
			llm.ContextCounts{Window: 8192, Prompt: 9100}},
		{"vLLM with the answer", []string{"This model's maximum context length is 8192 tokens. However, you requested 9000 tokens (8000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion."},
			llm.ContextCounts{Window: 8192, Prompt: 8000, Completion: 1000}},
		{"vLLM input tokens", []string{"This model's maximum context length is 4096 tokens. However, your request has 5000 input tokens. Please reduce the length of the input messages."},
			llm.ContextCounts{Window: 4096, Prompt: 5000}},
		{"vLLM in the messages", []string{"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens in the messages."},
			llm.ContextCounts{Window: 4096, Prompt: 5000}},
		{"the window alone", []string{"This model's maximum context length is 4096 tokens."}, llm.ContextCounts{Window: 4096}},
		{"llama.cpp", []string{"request (4476 tokens) exceeds the available context size (4096 tokens), try increasing it"},
			llm.ContextCounts{Window: 4096, Prompt: 4476}},
		{"llama.cpp's error object", []string{`{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":4476,"n_ctx":4096}}`},
			llm.ContextCounts{Window: 4096, Prompt: 4476}},
		{"older llama.cpp, no numbers", []string{"exceed_context_size_error", "the request exceeds the available context size, try increasing it"}, llm.ContextCounts{}},
		{"Gemini", []string{"INVALID_ARGUMENT", "The input token count (12575) exceeds the maximum number of tokens allowed (12000)."},
			llm.ContextCounts{Window: 12000, Prompt: 12575}},
		{"Anthropic", []string{"prompt is too long: 210000 tokens > 200000 maximum"}, llm.ContextCounts{Window: 200000, Prompt: 210000}},
		{"LM Studio", []string{`{"error":"Trying to keep the first 111490 tokens when context the overflows. However, the model is loaded with context length of only 32768 tokens, which is not enough."}`},
			llm.ContextCounts{Window: 32768, Prompt: 111490}},
		{"LM Studio, older", []string{"Error: Input length 6491 exceeds context length 1500"}, llm.ContextCounts{Window: 1500, Prompt: 6491}},
		{"a window out of range", []string{"This model's maximum context length is 99999999999999999999 tokens."}, llm.ContextCounts{}},
		{"a zero window", []string{"This model's maximum context length is 0 tokens."}, llm.ContextCounts{}},
		{"the second text states it", []string{"context_length_exceeded", "maximum context length is 2048 tokens"}, llm.ContextCounts{Window: 2048}},
		{"nothing", nil, llm.ContextCounts{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := OverflowCounts(tt.texts...); got != tt.want {
				t.Fatalf("OverflowCounts = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestMarkOverflow: counts are read only from an overflow, and reach
// llm.CountsOf through the error.
func TestMarkOverflow(t *testing.T) {
	e := &Error{}
	e.MarkOverflow("context_length_exceeded", "This model's maximum context length is 4096 tokens.")
	if !e.ContextExceeded {
		t.Fatal("the overflow was not marked")
	}
	if got := llm.CountsOf(e); got.Window != 4096 {
		t.Fatalf("CountsOf = %+v, want the window 4096", got)
	}
	other := &Error{}
	other.MarkOverflow("invalid_value", "temperature is 4096 at the maximum")
	if other.ContextExceeded || other.Counts != (llm.ContextCounts{}) {
		t.Fatalf("an ordinary error marked as an overflow: %+v", other)
	}
}

// FuzzOverflowCounts: whatever an endpoint says, reading its numbers does
// not fail, and what it reads is a window in range (or nothing).
func FuzzOverflowCounts(f *testing.F) {
	for _, s := range []string{
		"This model's maximum context length is 8192 tokens. However, you requested 9000 tokens (8000 in the messages, 1000 in the completion).",
		"request (4476 tokens) exceeds the available context size (4096 tokens)",
		`"n_prompt_tokens": 4476, "n_ctx": 4096`,
		"Trying to keep the first 111490 tokens when context the overflows. However, the model is loaded with context length of only 32768 tokens",
		"prompt is too long: 1 tokens > 0 maximum",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := OverflowCounts(s)
		if c == (llm.ContextCounts{}) {
			return
		}
		for _, n := range []int{c.Window, c.Prompt, c.Completion} {
			if n < 0 || n > maxStatedTokens {
				t.Fatalf("OverflowCounts(%q) = %+v: a number out of range", s, c)
			}
		}
		if c.Window == 0 {
			t.Fatalf("OverflowCounts(%q) = %+v: numbers without a window", s, c)
		}
	})
}
