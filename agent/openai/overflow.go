package openai

import (
	"strings"

	"github.com/agentls/agentls/agent/llm"
)

// overflowMarks are the ways endpoints say a request is longer than the
// model's context window: OpenAI's code, vLLM's and llama.cpp's messages
// and error type, and wordings other compatible servers use.
var overflowMarks = []string{
	"context_length_exceeded",
	"maximum context length",
	"exceeds the available context size",
	"exceed_context_size_error",
	"context length exceeded",
	"prompt is too long",
}

// contextExceeded reports whether an error code, type or message says the
// request did not fit the context window.
func contextExceeded(texts ...string) bool {
	for _, t := range texts {
		t = strings.ToLower(t)
		for _, m := range overflowMarks {
			if strings.Contains(t, m) {
				return true
			}
		}
	}
	return false
}

// Is makes errors.Is(err, llm.ErrContextExceeded) true for a request the
// endpoint refused as longer than the context window.
func (e *Error) Is(target error) bool {
	return target == llm.ErrContextExceeded && e.ContextExceeded
}
