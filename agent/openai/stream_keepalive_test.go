package openai

import (
	"context"
	"fmt"
	"net/http"
	"testing"
)

// TestKeepAliveCommentsBeforeFirstToken: SSE comment lines (": ..."),
// which the SSE format says a client ignores, are what OpenRouter and other
// proxies send while a slow or reasoning model has not produced its first
// token yet, so that the connection is not closed as idle. However many of
// them arrive before the first chunk, the answer that follows is the
// answer: the request must not fail as a malformed stream.
func TestKeepAliveCommentsBeforeFirstToken(t *testing.T) {
	for _, comments := range []int{10, 200, 1000} {
		t.Run(fmt.Sprintf("%d comments", comments), func(t *testing.T) {
			keepAlive := func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(http.StatusOK)
				for range comments {
					fmt.Fprint(w, ": OPENROUTER PROCESSING\n\n")
				}
				w.(http.Flusher).Flush()
				for _, c := range []string{roleChunk(), textChunk("ok"), finishChunk("stop")} {
					fmt.Fprintf(w, "data: %s\n\n", c)
				}
				fmt.Fprint(w, "data: [DONE]\n\n")
			}
			f := newFake(t, keepAlive, keepAlive)
			p := newTestProvider(t, f.URL, func(c *Config) { c.MaxRetries = -1 })
			resp, _, err := complete(context.Background(), p.Provider, userRequest("hi"))
			if err != nil {
				t.Fatalf("a stream with %d keep-alive comments before its first chunk failed: %v", comments, err)
			}
			if resp.Message.Content != "ok" {
				t.Fatalf("content = %q, want %q", resp.Message.Content, "ok")
			}
		})
	}
}
