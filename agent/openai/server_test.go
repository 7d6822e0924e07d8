package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/llm"
)

// recorded is one request the fake server received.
type recorded struct {
	Header http.Header
	Body   []byte
}

// fakeServer speaks the Chat Completions protocol on 127.0.0.1: the n-th
// request is answered by the n-th handler, and every request is recorded.
type fakeServer struct {
	t        *testing.T
	URL      string
	handlers []http.HandlerFunc

	mu   sync.Mutex
	reqs []recorded
}

func newFake(t *testing.T, handlers ...http.HandlerFunc) *fakeServer {
	t.Helper()
	f := &fakeServer{t: t, handlers: handlers}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	f.URL = srv.URL + "/v1"
	return f
}

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		f.t.Errorf("unexpected %s %s", r.Method, r.URL.Path)
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		f.t.Errorf("read request body: %v", err)
	}
	f.mu.Lock()
	n := len(f.reqs)
	f.reqs = append(f.reqs, recorded{Header: r.Header.Clone(), Body: body})
	f.mu.Unlock()
	if n >= len(f.handlers) {
		f.t.Errorf("unexpected request #%d", n+1)
		writeError(http.StatusBadRequest, nil, `{"error":{"message":"unexpected request","type":"invalid_request_error"}}`)(w, r)
		return
	}
	f.handlers[n](w, r)
}

func (f *fakeServer) requests() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.reqs...)
}

// requestJSON decodes the body of request i.
func (f *fakeServer) requestJSON(i int) map[string]any {
	f.t.Helper()
	reqs := f.requests()
	if i >= len(reqs) {
		f.t.Fatalf("request #%d was not made (%d made)", i+1, len(reqs))
	}
	var m map[string]any
	if err := json.Unmarshal(reqs[i].Body, &m); err != nil {
		f.t.Fatalf("request #%d body is not JSON: %v\n%s", i+1, err, reqs[i].Body)
	}
	return m
}

// writeSSE writes the response headers and the chunks as SSE events.
func writeSSE(w http.ResponseWriter, chunks []string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	for _, c := range chunks {
		fmt.Fprintf(w, "data: %s\n\n", c)
		w.(http.Flusher).Flush()
	}
}

// sse answers with the chunks and a final [DONE].
func sse(chunks ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		writeSSE(w, chunks)
		fmt.Fprint(w, "data: [DONE]\n\n")
	}
}

// sseCut sends the chunks, then drops the connection without finishing the
// response: the client sees an unexpected EOF.
func sseCut(chunks ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		writeSSE(w, chunks)
		panic(http.ErrAbortHandler)
	}
}

// sseStall sends the chunks, signals started, then hangs until the client
// goes away.
func sseStall(started chan<- struct{}, chunks ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		writeSSE(w, chunks)
		close(started)
		<-r.Context().Done()
	}
}

// writeError answers with status, headers and a body.
func writeError(status int, header map[string]string, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}
}

// jsonBody answers with a plain JSON body (no SSE).
func jsonBody(body string) http.HandlerFunc {
	return writeError(http.StatusOK, nil, body)
}

// apiError is an OpenAI error body.
func apiError(message, typ, code string) string {
	e := map[string]any{"message": message, "type": typ, "param": nil, "code": nil}
	if code != "" {
		e["code"] = code
	}
	return mustJSON(map[string]any{"error": e})
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// chunk is a chat.completion.chunk with one choice.
func chunk(delta map[string]any, finish string) string {
	var fr any
	if finish != "" {
		fr = finish
	}
	return mustJSON(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1",
		"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": fr}},
	})
}

// withThinking is m with the reasoning it keeps: thinking, and state, its
// ProviderState ("" for none).
func withThinking(m llm.Message, thinking, state string) llm.Message {
	m.Thinking = thinking
	if state != "" {
		m.ProviderState = json.RawMessage(state)
	}
	return m
}

func roleChunk() string                { return chunk(map[string]any{"role": "assistant", "content": ""}, "") }
func textChunk(s string) string        { return chunk(map[string]any{"content": s}, "") }
func thoughtChunk(s string) string     { return chunk(map[string]any{"reasoning_content": s}, "") }
func finishChunk(reason string) string { return chunk(map[string]any{}, reason) }

// callChunk carries tool-call deltas.
func callChunk(calls ...map[string]any) string {
	list := make([]any, len(calls))
	for i, c := range calls {
		list[i] = c
	}
	return chunk(map[string]any{"tool_calls": list}, "")
}

// call is a tool-call delta; index < 0 leaves the index out, empty strings
// leave their fields out.
func call(index int, id, name, args string) map[string]any {
	c := map[string]any{}
	if index >= 0 {
		c["index"] = index
	}
	if id != "" {
		c["id"] = id
		c["type"] = "function"
	}
	fn := map[string]any{}
	if name != "" {
		fn["name"] = name
	}
	if args != "" {
		fn["arguments"] = args
	}
	c["function"] = fn
	return c
}

func usageChunk(in, out int) string {
	return mustJSON(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1",
		"choices": []any{},
		"usage":   map[string]any{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out},
	})
}

// cachedUsageChunk is usageChunk with prompt_tokens_details.cached_tokens.
func cachedUsageChunk(in, out, cached int) string {
	return mustJSON(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1",
		"choices": []any{},
		"usage": map[string]any{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out,
			"prompt_tokens_details": map[string]any{"cached_tokens": cached}},
	})
}

// errorEvent is an error sent inside a stream.
func errorEvent(message, typ string) string {
	return mustJSON(map[string]any{"error": map[string]any{"message": message, "type": typ}})
}

// testProvider returns a provider for url with tiny backoffs and a sleep that
// only records the delays it was asked for.
type testProvider struct {
	*Provider
	sleeps []time.Duration
	logs   *strings.Builder
}

func newTestProvider(t *testing.T, url string, edit func(*Config)) *testProvider {
	t.Helper()
	logs := &strings.Builder{}
	cfg := Config{
		BaseURL:        url,
		APIKey:         "sk-test",
		Model:          "gpt-4.1",
		InitialBackoff: time.Millisecond,
		MaxBackoff:     8 * time.Millisecond,
		Logger:         slog.New(slog.NewTextHandler(logs, nil)),
	}
	if edit != nil {
		edit(&cfg)
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	tp := &testProvider{Provider: p, logs: logs}
	p.sleep = func(ctx context.Context, d time.Duration) error {
		tp.sleeps = append(tp.sleeps, d)
		return ctx.Err()
	}
	return tp
}

// complete runs one call and collects its events.
func complete(ctx context.Context, p *Provider, req llm.Request) (llm.Response, []llm.Event, error) {
	var events []llm.Event
	resp, err := p.Complete(ctx, req, func(e llm.Event) { events = append(events, e) })
	return resp, events, err
}

func userRequest(text string) llm.Request {
	return llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: text}}}
}
