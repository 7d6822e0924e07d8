package kit

import "strings"

// overflowMarks are the ways endpoints say a request is longer than the
// model's context window: OpenAI's code, vLLM's and llama.cpp's messages
// and error type, Anthropic's wording, Gemini's OpenAI-compatible
// endpoint's ("The input token count (N) exceeds the maximum number of
// tokens allowed (M)"), and others compatible servers use.
var overflowMarks = []string{
	"context_length_exceeded",
	"maximum context length",
	"exceeds the available context size",
	"exceed_context_size_error",
	"context length exceeded",
	"prompt is too long",
	"input token count",
}

// ContextExceeded reports whether an error code, type or message says the
// request did not fit the context window.
func ContextExceeded(texts ...string) bool {
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
