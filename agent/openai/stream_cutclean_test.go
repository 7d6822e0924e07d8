package openai

import (
	"context"
	"fmt"
	"net/http"
	"testing"
)

// TestStreamEndingWithoutDoneOrFinish: a proxy or load balancer that
// gives up on a long answer may end the HTTP response cleanly (a proper
// end of the chunked body) in the middle of the model's stream. The stream
// then ends with neither a finish_reason nor the [DONE] event: it was cut,
// not finished. agentls must not take the cut answer for the model's
// whole answer (saved as the turn's last message, the turn ending as
// end_turn): it is a dropped stream — retried while nothing has reached the
// user, an error after. Today it is returned as a complete "stop" answer.
func TestStreamEndingWithoutDoneOrFinish(t *testing.T) {
	cutClean := func(chunks ...string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			for _, c := range chunks {
				fmt.Fprintf(w, "data: %s\n\n", c)
			}
			// The handler returns: the response ends cleanly, without
			// a finish_reason and without [DONE].
		}
	}
	t.Run("text", func(t *testing.T) {
		f := newFake(t, cutClean(roleChunk(), textChunk("The plan has three steps: first, ")))
		p := newTestProvider(t, f.URL, func(c *Config) { c.MaxRetries = -1 })
		resp, _, err := complete(context.Background(), p.Provider, userRequest("plan it"))
		if err == nil {
			t.Fatalf("a stream cut after %q was taken for a whole answer (finish reason %q)", resp.Message.Content, resp.FinishReason)
		}
	})
	t.Run("tool call, retried", func(t *testing.T) {
		ok := sse(roleChunk(), textChunk("ok"), finishChunk("stop"))
		f := newFake(t, cutClean(roleChunk(), callChunk(call(0, "call_1", "plan_write", `{"path":"p.plan","content":"# Pl`))), ok)
		p := newTestProvider(t, f.URL, nil)
		resp, _, err := complete(context.Background(), p.Provider, userRequest("plan it"))
		if err != nil || len(resp.Message.ToolCalls) != 0 || resp.Message.Content != "ok" {
			t.Fatalf("Complete = %+v, %v; want the cut stream (nothing shown yet) retried and the second answer %q", resp.Message, err, "ok")
		}
	})
}
