package openai

import (
	"context"
	"errors"
	"testing"

	"github.com/agentls/agentls/agent/llm"
)

// TestErrorObjectIn200Body: some OpenAI-compatible gateways answer a
// failed request with HTTP 200 and an OpenAI error object as the body
// ({"error":{...}}), not a chat completion. That body says what failed,
// and agentls must act on it as on the same error sent with an error
// status: an overflow must be llm.ErrContextExceeded (so the turn compacts
// and retries, then sets the prompt aside, instead of every later prompt
// failing the same way), and a rate limit must be retried. Today both are
// one "malformed answer", neither recognised nor retried.
func TestErrorObjectIn200Body(t *testing.T) {
	overflow := apiError("This model's maximum context length is 8192 tokens. However, your messages resulted in 9100 tokens.",
		"invalid_request_error", "context_length_exceeded")
	rateLimited := apiError("Rate limit reached for requests", "requests", "rate_limit_exceeded")
	ok := sse(roleChunk(), textChunk("ok"), finishChunk("stop"))
	for _, noStream := range []bool{false, true} {
		name := "streaming"
		if noStream {
			name = "non-streaming"
		}
		t.Run(name+"/overflow", func(t *testing.T) {
			f := newFake(t, jsonBody(overflow), jsonBody(overflow))
			p := newTestProvider(t, f.URL, func(c *Config) { c.NoStream = noStream })
			_, _, err := complete(context.Background(), p.Provider, userRequest("hi"))
			if !errors.Is(err, llm.ErrContextExceeded) {
				t.Fatalf("err = %v; want llm.ErrContextExceeded for a 200 answer whose body is a context_length_exceeded error", err)
			}
		})
		t.Run(name+"/rate limit", func(t *testing.T) {
			second := ok
			if noStream {
				second = jsonBody(`{"id":"x","object":"chat.completion","created":1,"model":"gpt-4.1","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`)
			}
			f := newFake(t, jsonBody(rateLimited), second)
			p := newTestProvider(t, f.URL, func(c *Config) { c.NoStream = noStream })
			resp, _, err := complete(context.Background(), p.Provider, userRequest("hi"))
			if err != nil || resp.Message.Content != "ok" {
				t.Fatalf("Complete = %q, %v; want the rate limit in a 200 body retried, then %q", resp.Message.Content, err, "ok")
			}
		})
	}
}
