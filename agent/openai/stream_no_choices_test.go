package openai

import (
	"context"
	"testing"
)

// TestStreamWithNoChoicesIsNotAnEmptyAnswer: a stream whose only event
// carries an empty choices array (a gateway that failed upstream, or that
// filtered the whole answer, and still closed with usage and [DONE]) holds no
// answer at all. The same body without streaming is refused as malformed
// ("the answer has no choices"), and retried; streamed it is returned as a
// whole, successful, empty "stop" answer: the turn ends as if the model had
// chosen to say nothing, and the user is told nothing.
func TestStreamWithNoChoicesIsNotAnEmptyAnswer(t *testing.T) {
	f := newFake(t, sse(usageChunk(1200, 0)))
	p := newTestProvider(t, f.URL, func(c *Config) { c.MaxRetries = -1 })
	resp, _, err := complete(context.Background(), p.Provider, userRequest("plan it"))
	if err == nil {
		t.Fatalf("a stream with no choice at all was taken for a whole answer: %+v (finish reason %q)", resp.Message, resp.FinishReason)
	}
}
