package openai

import (
	"context"
	"errors"
	"net"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/llm/kit"
)

func TestRetries(t *testing.T) {
	rateLimited := apiError("Rate limit reached for gpt-4.1", "requests", "rate_limit_exceeded")
	quota := apiError("You exceeded your current quota, please check your plan and billing details.", "insufficient_quota", "insufficient_quota")
	ok := sse(roleChunk(), textChunk("ok"), finishChunk("stop"))

	tests := []struct {
		name     string
		handlers []http.HandlerFunc
		edit     func(*Config)
		// wantErr is the exact error text when it starts with "=", else a
		// substring; empty means success with text "ok".
		wantErr    string
		wantReqs   int
		wantSleeps []time.Duration // nil: not checked
		wantEvents []llm.Event     // checked when wantErr is set
	}{{
		name:       "429 with Retry-After 0, then success",
		handlers:   []http.HandlerFunc{writeError(429, map[string]string{"Retry-After": "0"}, rateLimited), ok},
		wantReqs:   2,
		wantSleeps: []time.Duration{0},
	}, {
		name:       "429 with Retry-After 1 is honoured",
		handlers:   []http.HandlerFunc{writeError(429, map[string]string{"Retry-After": "1"}, rateLimited), ok},
		edit:       func(c *Config) { c.MaxBackoff = time.Minute },
		wantReqs:   2,
		wantSleeps: []time.Duration{time.Second},
	}, {
		name:       "429 with retry-after-ms",
		handlers:   []http.HandlerFunc{writeError(429, map[string]string{"Retry-After-Ms": "250", "Retry-After": "1"}, rateLimited), ok},
		edit:       func(c *Config) { c.MaxBackoff = time.Minute },
		wantReqs:   2,
		wantSleeps: []time.Duration{250 * time.Millisecond},
	}, {
		name:       "Retry-After is capped at MaxBackoff",
		handlers:   []http.HandlerFunc{writeError(429, map[string]string{"Retry-After": "120"}, rateLimited), ok},
		wantReqs:   2,
		wantSleeps: []time.Duration{8 * time.Millisecond},
	}, {
		name:       "429 insufficient_quota is not retried",
		handlers:   []http.HandlerFunc{writeError(429, nil, quota)},
		wantErr:    "=model request failed: 429 Too Many Requests: You exceeded your current quota, please check your plan and billing details. (insufficient_quota: check the account's plan and billing; not retried)",
		wantReqs:   1,
		wantSleeps: []time.Duration{},
	}, {
		name: "500 until the retries run out",
		handlers: []http.HandlerFunc{
			writeError(500, nil, apiError("boom", "server_error", "")),
			writeError(500, nil, apiError("boom", "server_error", "")),
			writeError(500, nil, apiError("boom", "server_error", "")),
		},
		edit:     func(c *Config) { c.MaxRetries = 2 },
		wantErr:  "=model request failed after 3 attempts: 500 Internal Server Error: boom",
		wantReqs: 3,
	}, {
		name:       "negative MaxRetries disables retries",
		handlers:   []http.HandlerFunc{writeError(503, nil, apiError("busy", "server_error", ""))},
		edit:       func(c *Config) { c.MaxRetries = -1 },
		wantErr:    "=model request failed: 503 Service Unavailable: busy",
		wantReqs:   1,
		wantSleeps: []time.Duration{},
	}, {
		name:       "401 is a clear error",
		handlers:   []http.HandlerFunc{writeError(401, nil, apiError("Incorrect API key provided", "invalid_request_error", "invalid_api_key"))},
		wantErr:    "=model request failed: 401 Unauthorized: Incorrect API key provided (check OPENAI_API_KEY / api_key_env)",
		wantReqs:   1,
		wantSleeps: []time.Duration{},
	}, {
		name:       "403 is not retried",
		handlers:   []http.HandlerFunc{writeError(403, nil, apiError("Project does not have access", "invalid_request_error", ""))},
		wantErr:    "=model request failed: 403 Forbidden: Project does not have access (check OPENAI_API_KEY / api_key_env)",
		wantReqs:   1,
		wantSleeps: []time.Duration{},
	}, {
		name:       "404 names the model",
		handlers:   []http.HandlerFunc{writeError(404, nil, apiError("The model `gpt-9` does not exist", "invalid_request_error", "model_not_found"))},
		wantErr:    "=model request failed: 404 Not Found: The model `gpt-9` does not exist (check the model name and base_url)",
		wantReqs:   1,
		wantSleeps: []time.Duration{},
	}, {
		name:       "400 is not retried",
		handlers:   []http.HandlerFunc{writeError(400, nil, apiError("Invalid schema for function", "invalid_request_error", ""))},
		wantErr:    "=model request failed: 400 Bad Request: Invalid schema for function",
		wantReqs:   1,
		wantSleeps: []time.Duration{},
	}, {
		name:     "502 with an HTML body, then success",
		handlers: []http.HandlerFunc{writeError(502, map[string]string{"Content-Type": "text/html"}, "<html><body>Bad gateway</body></html>"), ok},
		wantReqs: 2,
	}, {
		name:       "502 HTML body in the final error",
		handlers:   []http.HandlerFunc{writeError(502, map[string]string{"Content-Type": "text/html"}, "<html>\n<body>Bad   gateway</body></html>")},
		edit:       func(c *Config) { c.MaxRetries = -1 },
		wantErr:    "=model request failed: 502 Bad Gateway: <html> <body>Bad gateway</body></html>",
		wantReqs:   1,
		wantSleeps: []time.Duration{},
	}, {
		name:     "stream cut before any content is retried",
		handlers: []http.HandlerFunc{sseCut(roleChunk()), ok},
		wantReqs: 2,
	}, {
		name:     "stream ended before any data is retried",
		handlers: []http.HandlerFunc{sse(), ok},
		wantReqs: 2,
	}, {
		name:       "stream cut after content is an error, not retried",
		handlers:   []http.HandlerFunc{sseCut(roleChunk(), textChunk("par")), ok},
		wantErr:    "model request failed: output had started, not retried: stream dropped: unexpected EOF",
		wantReqs:   1,
		wantSleeps: []time.Duration{},
		wantEvents: []llm.Event{text("par")},
	}, {
		name:     "error event before content is retried",
		handlers: []http.HandlerFunc{sse(errorEvent("The server is overloaded", "server_error")), ok},
		wantReqs: 2,
	}, {
		name:       "error event after content is not retried",
		handlers:   []http.HandlerFunc{sse(textChunk("par"), errorEvent("The server is overloaded", "server_error")), ok},
		wantErr:    "=model request failed: output had started, not retried: error event in stream [server_error]: The server is overloaded",
		wantReqs:   1,
		wantSleeps: []time.Duration{},
		wantEvents: []llm.Event{text("par")},
	}, {
		name:     "error event with a numeric code is classified by it",
		handlers: []http.HandlerFunc{sse(`{"error":{"code":503,"message":"Loading model"}}`), ok},
		wantReqs: 2,
	}, {
		name:       "non-transient error event",
		handlers:   []http.HandlerFunc{sse(errorEvent("context length exceeded", "invalid_request_error"))},
		wantErr:    "=model request failed: error event in stream [invalid_request_error]: context length exceeded",
		wantReqs:   1,
		wantSleeps: []time.Duration{},
	}, {
		name:       "malformed chunk",
		handlers:   []http.HandlerFunc{sse(`{"choices":[{"index":0,"delta":{"content":`)},
		wantErr:    "model request failed: malformed answer:",
		wantReqs:   1,
		wantSleeps: []time.Duration{},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, tt.handlers...)
			p := newTestProvider(t, f.URL, tt.edit)
			resp, events, err := complete(context.Background(), p.Provider, userRequest("hi"))
			switch {
			case tt.wantErr == "":
				if err != nil {
					t.Fatalf("Complete: %v", err)
				}
				if resp.Message.Content != "ok" || !reflect.DeepEqual(events, []llm.Event{text("ok")}) {
					t.Errorf("got %q with events %q, want \"ok\" once", resp.Message.Content, events)
				}
			case err == nil:
				t.Fatalf("Complete succeeded with %+v, want error %q", resp, tt.wantErr)
			case strings.HasPrefix(tt.wantErr, "="):
				if err.Error() != tt.wantErr[1:] {
					t.Errorf("error\n got %q\nwant %q", err, tt.wantErr[1:])
				}
			case !strings.Contains(err.Error(), tt.wantErr):
				t.Errorf("error %q does not contain %q", err, tt.wantErr)
			}
			if tt.wantErr != "" {
				var e *kit.Error
				if !errors.As(err, &e) {
					t.Errorf("error %T is not an *Error", err)
				} else if e.Attempts != tt.wantReqs {
					t.Errorf("Attempts = %d, want %d", e.Attempts, tt.wantReqs)
				}
				if !reflect.DeepEqual(events, tt.wantEvents) {
					t.Errorf("events %q, want %q", events, tt.wantEvents)
				}
			}
			if n := len(f.requests()); n != tt.wantReqs {
				t.Errorf("%d requests, want %d", n, tt.wantReqs)
			}
			if tt.wantSleeps != nil && !reflect.DeepEqual(append([]time.Duration{}, p.sleeps...), tt.wantSleeps) {
				t.Errorf("sleeps %v, want %v", p.sleeps, tt.wantSleeps)
			}
		})
	}
}

func TestRetryBackoffGrowsWithJitter(t *testing.T) {
	boom := writeError(500, nil, apiError("boom", "server_error", ""))
	f := newFake(t, boom, boom, boom, boom, boom)
	p := newTestProvider(t, f.URL, func(c *Config) {
		c.InitialBackoff = 100 * time.Millisecond
		c.MaxBackoff = 300 * time.Millisecond
	})
	_, _, err := complete(context.Background(), p.Provider, userRequest("hi"))
	if err == nil {
		t.Fatal("Complete succeeded, want an error")
	}
	caps := []time.Duration{100, 200, 300, 300}
	if len(p.sleeps) != len(caps) {
		t.Fatalf("sleeps %v, want %d", p.sleeps, len(caps))
	}
	for i, d := range p.sleeps {
		hi := caps[i] * time.Millisecond
		if d < hi/2 || d > hi {
			t.Errorf("sleep %d = %v, want within [%v, %v]", i, d, hi/2, hi)
		}
	}
	if !strings.Contains(p.logs.String(), "model request failed; retrying") || !strings.Contains(p.logs.String(), "attempt=4") {
		t.Errorf("retries not logged:\n%s", p.logs)
	}
}

func TestCancelWhileServerStalls(t *testing.T) {
	started := make(chan struct{})
	f := newFake(t, sseStall(started, roleChunk(), textChunk("thinking")))
	p := newTestProvider(t, f.URL, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gotText := make(chan struct{})
	go func() {
		<-started // the server now stalls
		<-gotText // and the client has read what came before
		cancel()
	}()
	var events []llm.Event
	_, err := p.Complete(ctx, userRequest("hi"), func(e llm.Event) {
		events = append(events, e)
		close(gotText)
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	if !reflect.DeepEqual(events, []llm.Event{text("thinking")}) {
		t.Errorf("events %q", events)
	}
	if n := len(f.requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

func TestCancelBeforeResponseHeaders(t *testing.T) {
	arrived := make(chan struct{})
	stall := func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-r.Context().Done()
	}
	f := newFake(t, stall)
	p := newTestProvider(t, f.URL, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-arrived
		cancel()
	}()
	_, _, err := complete(ctx, p.Provider, userRequest("hi"))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	if len(p.sleeps) != 0 {
		t.Errorf("slept %v after cancellation", p.sleeps)
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	f := newFake(t, writeError(429, map[string]string{"Retry-After": "3600"}, apiError("slow down", "requests", "rate_limit_exceeded")))
	p := newTestProvider(t, f.URL, func(c *Config) { c.MaxBackoff = 2 * time.Hour })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var asked time.Duration
	p.sleep = func(ctx context.Context, d time.Duration) error {
		asked = d
		cancel()
		return kit.SleepCtx(ctx, d) // the real sleep must stop on ctx.Done()
	}
	_, _, err := complete(ctx, p.Provider, userRequest("hi"))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	if asked != time.Hour {
		t.Errorf("backoff = %v, want the server's 1h", asked)
	}
}

func TestUnreachableServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	p := newTestProvider(t, "http://"+addr+"/v1", nil)
	_, _, err = complete(context.Background(), p.Provider, userRequest("hi"))
	if err == nil {
		t.Fatal("Complete succeeded against a closed port")
	}
	for _, want := range []string{"model request failed: cannot reach the server", "check base_url"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if len(p.sleeps) != 0 {
		t.Errorf("retried a refused connection: sleeps %v", p.sleeps)
	}
}

func TestErrorUnwrapsProviderError(t *testing.T) {
	f := newFake(t, writeError(401, nil, apiError("Incorrect API key provided", "invalid_request_error", "invalid_api_key")))
	p := newTestProvider(t, f.URL, nil)
	_, _, err := complete(context.Background(), p.Provider, userRequest("hi"))
	var e *kit.Error
	if !errors.As(err, &e) || e.StatusCode != 401 || e.Code != "invalid_api_key" || e.Transient {
		t.Fatalf("error = %#v", err)
	}
	var apiErr *goopenai.APIError
	if !errors.As(err, &apiErr) || apiErr.Message != "Incorrect API key provided" {
		t.Errorf("the go-openai error is not reachable through Unwrap: %v", err)
	}
}
