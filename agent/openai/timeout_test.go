package openai

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/llm/kit"
)

// stallBeforeHeaders signals reached, then sends nothing until the client
// goes away.
func stallBeforeHeaders(reached chan<- struct{}) http.HandlerFunc {
	return func(_ http.ResponseWriter, r *http.Request) {
		reached <- struct{}{}
		<-r.Context().Done()
	}
}

// stallAfter sends the chunks (none: only the headers), signals reached,
// then hangs until the client goes away.
func stallAfter(reached chan<- struct{}, chunks ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		writeSSE(w, chunks)
		reached <- struct{}{}
		<-r.Context().Done()
	}
}

// TestTimeouts: an endpoint that stalls before its headers, after them, or
// in the middle of a stream ends the attempt after the first-byte or idle
// timeout; before any output it is retried, after output it is a clear
// error (the output cannot be replayed).
func TestTimeouts(t *testing.T) {
	const short = 50 * time.Millisecond
	tests := []struct {
		name       string
		stall      func(chan<- struct{}) http.HandlerFunc
		wantErr    string
		wantReqs   int
		wantEvents int
	}{{
		name:     "before headers",
		stall:    stallBeforeHeaders,
		wantErr:  "model request failed after 2 attempts: no answer from the model endpoint within 50ms of the request (model.first_byte_timeout_secs)",
		wantReqs: 2,
	}, {
		name:     "after headers",
		stall:    func(r chan<- struct{}) http.HandlerFunc { return stallAfter(r) },
		wantErr:  "model request failed after 2 attempts: no answer from the model endpoint within 50ms of the request (model.first_byte_timeout_secs)",
		wantReqs: 2,
	}, {
		name:     "after the role chunk, before any text",
		stall:    func(r chan<- struct{}) http.HandlerFunc { return stallAfter(r, roleChunk()) },
		wantErr:  "model request failed after 2 attempts: the model's stream was silent for 50ms (model.idle_timeout_secs)",
		wantReqs: 2,
	}, {
		name:       "mid-stream",
		stall:      func(r chan<- struct{}) http.HandlerFunc { return stallAfter(r, roleChunk(), textChunk("partial")) },
		wantErr:    "model request failed: output had started, not retried: the model's stream was silent for 50ms (model.idle_timeout_secs)",
		wantReqs:   1,
		wantEvents: 1,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reached := make(chan struct{}, 2)
			f := newFake(t, tt.stall(reached), tt.stall(reached))
			p := newTestProvider(t, f.URL, func(c *Config) {
				c.MaxRetries = 1
				c.FirstByteTimeout, c.IdleTimeout = short, short
			})
			_, events, err := complete(context.Background(), p.Provider, userRequest("hi"))
			var e *kit.Error
			if !errors.As(err, &e) || err.Error() != tt.wantErr {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
			if n := len(f.requests()); n != tt.wantReqs {
				t.Errorf("%d requests, want %d", n, tt.wantReqs)
			}
			if len(events) != tt.wantEvents {
				t.Errorf("events %v, want %d", events, tt.wantEvents)
			}
		})
	}
}

// TestCancelWhileStalled: cancelling the request's context (agent/cancel)
// ends it at once wherever the endpoint stalls, with generous timeouts.
func TestCancelWhileStalled(t *testing.T) {
	stalls := map[string]func(chan<- struct{}) http.HandlerFunc{
		"before headers": stallBeforeHeaders,
		"after headers":  func(r chan<- struct{}) http.HandlerFunc { return stallAfter(r) },
		"mid-stream":     func(r chan<- struct{}) http.HandlerFunc { return stallAfter(r, roleChunk(), textChunk("partial")) },
	}
	for name, stall := range stalls {
		t.Run(name, func(t *testing.T) {
			reached := make(chan struct{}, 1)
			f := newFake(t, stall(reached))
			p := newTestProvider(t, f.URL, func(c *Config) {
				c.FirstByteTimeout, c.IdleTimeout = time.Hour, time.Hour
			})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, _, err := complete(ctx, p.Provider, userRequest("hi"))
				done <- err
			}()
			<-reached
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			if n := len(f.requests()); n != 1 {
				t.Errorf("%d requests after a cancel, want 1", n)
			}
		})
	}
}

// TestConnectTimeoutDefault: a provider built without an HTTP client bounds
// connecting with ConnectTimeout (default 30 s).
func TestConnectTimeoutDefault(t *testing.T) {
	p, err := New(Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m", ConnectTimeout: 7 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	tr, ok := p.cfg.HTTPClient.Transport.(*http.Transport)
	if !ok || tr.TLSHandshakeTimeout != 7*time.Second || tr.DialContext == nil {
		t.Fatalf("transport %+v", p.cfg.HTTPClient.Transport)
	}
	// Nothing listens on port 1: the dial fails at once, as a clear error.
	_, _, err = complete(context.Background(), p, userRequest("hi"))
	if err == nil || !strings.Contains(err.Error(), "check base_url and that the server is running") {
		t.Fatalf("err = %v", err)
	}
	d, _ := New(Config{Model: "m"})
	if d.cfg.ConnectTimeout != kit.DefaultConnectTimeout || d.cfg.FirstByteTimeout != kit.DefaultFirstByteTimeout || d.cfg.IdleTimeout != kit.DefaultIdleTimeout {
		t.Fatalf("defaults %v %v %v", d.cfg.ConnectTimeout, d.cfg.FirstByteTimeout, d.cfg.IdleTimeout)
	}
}
