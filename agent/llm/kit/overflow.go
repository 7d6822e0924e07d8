package kit

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/agentls/agentls/agent/llm"
)

// overflowMarks are the ways endpoints say a request is longer than the
// model's context window: OpenAI's code, vLLM's and llama.cpp's messages
// and error type, Anthropic's wording, Gemini's OpenAI-compatible
// endpoint's ("The input token count (N) exceeds the maximum number of
// tokens allowed (M)"), LM Studio's (its llama.cpp engine: "Trying to keep
// the first N tokens when context the overflows. However, the model is
// loaded with context length of only M tokens"; its MLX engine: "Context
// size has been exceeded"; older: "Input length N exceeds context length
// M"), Ollama's, for the models it does not cut silently ("the input length
// exceeds the context length"), and others compatible servers use. Not LM
// Studio's "Reached context length of M tokens": the answer ran out of room
// while it streamed, and a retry would show its start twice.
var overflowMarks = []string{
	"context_length_exceeded",
	"maximum context length",
	"exceeds the available context size",
	"exceed_context_size_error",
	"context length exceeded",
	"prompt is too long",
	"input token count",
	"loaded with context length of only",
	"context size has been exceeded",
	"exceeds context length",
	"exceeds the context length",
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

// MarkOverflow sets e.ContextExceeded when an error code, type or message
// says the request did not fit the context window, and then e.Counts to
// the numbers it states.
func (e *Error) MarkOverflow(texts ...string) {
	if e.ContextExceeded = ContextExceeded(texts...); e.ContextExceeded {
		e.Counts = OverflowCounts(texts...)
	}
}

// countForms are the overflow messages that state numbers, each with the
// submatch that is the model's context window, the request's (input)
// tokens and the tokens asked for the answer (0: not stated), matched on
// the lower-cased text.
var countForms = []struct {
	re                         *regexp.Regexp
	window, prompt, completion int
}{
	// vLLM: "… maximum context length is 8192 tokens. However, you
	// requested 9000 tokens (8000 in the messages, 1000 in the completion)."
	{regexp.MustCompile(`maximum context length is (\d+) tokens.{0,40}?requested \d+ tokens \((\d+) in the messages, (\d+) in the completion\)`), 1, 2, 3},
	// OpenAI: "… maximum context length is 8192 tokens. However, your
	// messages resulted in 9000 tokens."; vLLM: "However, your request has
	// 9000 input tokens" or "you requested 9000 tokens in the messages".
	{regexp.MustCompile(`maximum context length is (\d+) tokens.{0,40}?(?:resulted in|request has|requested) (\d+) (?:input )?tokens`), 1, 2, 0},
	{regexp.MustCompile(`maximum context length is (\d+) tokens`), 1, 0, 0},
	// llama.cpp: "request (9000 tokens) exceeds the available context size
	// (8192 tokens)", and its error object's fields.
	{regexp.MustCompile(`request \((\d+) tokens\) exceeds the available context size \((\d+) tokens\)`), 2, 1, 0},
	{regexp.MustCompile(`"n_prompt_tokens":\s*(\d+),\s*"n_ctx":\s*(\d+)`), 2, 1, 0},
	// Gemini: "The input token count (9000) exceeds the maximum number of
	// tokens allowed (8192)."
	{regexp.MustCompile(`input token count \((\d+)\) exceeds the maximum number of tokens allowed \((\d+)\)`), 2, 1, 0},
	// Anthropic: "prompt is too long: 210000 tokens > 200000 maximum".
	{regexp.MustCompile(`prompt is too long: (\d+) tokens > (\d+) maximum`), 2, 1, 0},
	// LM Studio (see overflowMarks).
	{regexp.MustCompile(`keep the first (\d+) tokens.{0,80}?context length of only (\d+) tokens`), 2, 1, 0},
	{regexp.MustCompile(`input length (\d+) exceeds context length (\d+)`), 2, 1, 0},
}

// maxStatedTokens bounds a number read from an endpoint's message: a larger
// one is no window any model has, and is ignored.
const maxStatedTokens = 100_000_000

// OverflowCounts reads what an endpoint's overflow error says in numbers:
// the model's context window, the request's input tokens and the tokens
// asked for the answer, each 0 when not said. The first text stating a
// window wins; the rest of the message is not trusted further (a number
// out of range reads as not said).
func OverflowCounts(texts ...string) llm.ContextCounts {
	for _, t := range texts {
		t = strings.ToLower(t)
		for _, f := range countForms {
			m := f.re.FindStringSubmatch(t)
			if m == nil {
				continue
			}
			c := llm.ContextCounts{Window: stated(m, f.window), Prompt: stated(m, f.prompt), Completion: stated(m, f.completion)}
			if c.Window > 0 {
				return c
			}
		}
	}
	return llm.ContextCounts{}
}

// stated is submatch i of m as a token count (0 when i is 0, not a number
// or out of range).
func stated(m []string, i int) int {
	if i == 0 || i >= len(m) {
		return 0
	}
	n, err := strconv.Atoi(m[i])
	if err != nil || n <= 0 || n > maxStatedTokens {
		return 0
	}
	return n
}
