package openai

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// windowServer is an endpoint answering the paths in answers ("GET /props")
// with their bodies, and everything else 404; it counts what it was asked.
type windowServer struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
	auth []string
}

func newWindowServer(t *testing.T, answers map[string]string) *windowServer {
	t.Helper()
	ws := &windowServer{hits: map[string]int{}}
	ws.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Method + " " + r.URL.Path
		ws.mu.Lock()
		ws.hits[key]++
		ws.auth = append(ws.auth, r.Header.Get("Authorization"))
		ws.mu.Unlock()
		body, ok := answers[key]
		switch {
		case !ok:
			http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
		case strings.HasPrefix(body, "status:"):
			code := 0
			for _, c := range strings.TrimPrefix(body, "status:") {
				code = code*10 + int(c-'0')
			}
			http.Error(w, "failure", code)
		default:
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(body))
		}
	}))
	t.Cleanup(ws.Close)
	return ws
}

func (ws *windowServer) asked(key string) int {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.hits[key]
}

func windowProvider(t *testing.T, base, model string) *Provider {
	t.Helper()
	p, err := New(Config{BaseURL: base, Model: model, APIKey: "sk-test"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The answers below have the shapes the servers' own documentation and
// sources give (trimmed to the fields that matter and a few around them).
func TestContextWindowReports(t *testing.T) {
	tests := []struct {
		name    string
		model   string
		answers map[string]string
		want    int
		source  string
		again   bool // nothing reported, and the endpoint is asked again before a later request
	}{
		{"vLLM", "Qwen/Qwen2.5-Coder-7B-Instruct", map[string]string{
			"GET /v1/models": `{"object":"list","data":[{"id":"Qwen/Qwen2.5-Coder-7B-Instruct","object":"model","owned_by":"vllm","root":"Qwen/Qwen2.5-Coder-7B-Instruct","max_model_len":16384,"permission":[{"id":"modelperm-1","object":"model_permission"}]}]}`,
		}, 16384, "the model list's max_model_len", false},
		{"OpenRouter", "qwen/qwen3-coder", map[string]string{
			"GET /v1/models": `{"data":[{"id":"openai/gpt-4o","context_length":128000},{"id":"qwen/qwen3-coder","name":"Qwen3 Coder","context_length":262144,"top_provider":{"context_length":262144,"max_completion_tokens":null}}]}`,
		}, 262144, "the model list's context_length", false},
		{"Groq", "llama-3.3-70b-versatile", map[string]string{
			"GET /v1/models": `{"object":"list","data":[{"id":"llama-3.3-70b-versatile","object":"model","owned_by":"Meta","active":true,"context_window":131072}]}`,
		}, 131072, "the model list's context_window", false},
		{"llama.cpp: the slot's context, not the trained one", "qwen2.5-coder-7b-q4_k_m.gguf", map[string]string{
			"GET /v1/models": `{"object":"list","data":[{"id":"qwen2.5-coder-7b-q4_k_m.gguf","object":"model","owned_by":"llamacpp","meta":{"vocab_type":2,"n_vocab":152064,"n_ctx_train":131072,"n_embd":3584}}]}`,
			"GET /props":     `{"default_generation_settings":{"id":0,"n_ctx":8192,"speculative":false,"params":{"n_predict":-1}},"total_slots":1,"model_path":"/models/qwen.gguf","chat_template":"{{x}}"}`,
		}, 8192, "llama.cpp /props", false},
		{"LM Studio, loaded", "qwen2.5-7b-instruct", map[string]string{
			"GET /v1/models":     `{"data":[{"id":"qwen2.5-7b-instruct","object":"model","owned_by":"organization_owner"}],"object":"list"}`,
			"GET /api/v0/models": `{"object":"list","data":[{"id":"text-embedding-nomic","type":"embeddings","state":"not-loaded","max_context_length":2048},{"id":"qwen2.5-7b-instruct","object":"model","type":"llm","publisher":"lmstudio-community","arch":"qwen2","state":"loaded","max_context_length":32768,"loaded_context_length":4096}]}`,
		}, 4096, "LM Studio /api/v0/models", false},
		{"LM Studio 0.4, loaded", "qwen/qwen3-8b", map[string]string{
			"GET /api/v1/models": `{"models":[{"type":"embedding","key":"text-embedding-nomic","loaded_instances":[]},{"type":"llm","publisher":"qwen","key":"qwen/qwen3-8b","display_name":"Qwen3 8B","max_context_length":40960,"loaded_instances":[{"id":"qwen/qwen3-8b","config":{"context_length":8192,"flash_attention":true}}]}]}`,
			"GET /api/v0/models": `{"object":"list","data":[{"id":"qwen/qwen3-8b","type":"llm","state":"loaded","max_context_length":40960,"loaded_context_length":8192}]}`,
		}, 8192, "LM Studio /api/v1/models", false},
		{"LM Studio 0.4, not loaded yet", "qwen/qwen3-8b", map[string]string{
			"GET /api/v1/models": `{"models":[{"type":"llm","key":"qwen/qwen3-8b","max_context_length":40960,"loaded_instances":[]}]}`,
		}, 0, "", true},
		{"LM Studio, not loaded yet", "qwen2.5-7b-instruct", map[string]string{
			"GET /api/v0/models": `{"object":"list","data":[{"id":"qwen2.5-7b-instruct","type":"llm","state":"not-loaded","max_context_length":32768}]}`,
		}, 0, "", true},
		{"Ollama, loaded", "qwen3", map[string]string{
			"GET /v1/models": `{"object":"list","data":[{"id":"qwen3:latest","object":"model","created":1750000000,"owned_by":"library"}]}`,
			"GET /api/ps":    `{"models":[{"name":"qwen3:latest","model":"qwen3:latest","size":6654289920,"digest":"500a1f","details":{"family":"qwen3"},"expires_at":"2026-11-29T20:00:00Z","size_vram":6654289920,"context_length":8192}]}`,
		}, 8192, "Ollama /api/ps", false},
		{"Ollama, not loaded, the Modelfile's num_ctx", "my-coder:7b", map[string]string{
			"GET /api/ps":    `{"models":[]}`,
			"POST /api/show": `{"license":"…","modelfile":"FROM qwen2.5-coder\nPARAMETER num_ctx 16384","parameters":"num_ctx                        16384\nstop                           \"<|im_end|>\"","model_info":{"general.architecture":"qwen2","qwen2.context_length":32768}}`,
		}, 16384, "Ollama /api/show num_ctx", false},
		{"Ollama, not loaded, the server's default: asked again", "qwen3", map[string]string{
			"GET /api/ps":    `{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest","context_length":4096}]}`,
			"POST /api/show": `{"parameters":"stop \"<|im_end|>\"","model_info":{"general.architecture":"qwen3","qwen3.context_length":40960}}`,
		}, 0, "", true},
		{"an older Ollama that lists no context_length", "qwen3:latest", map[string]string{
			"GET /api/ps":    `{"models":[{"name":"qwen3:latest","model":"qwen3:latest","size_vram":1}]}`,
			"POST /api/show": `{"parameters":""}`,
		}, 0, "", false},
		{"OpenAI: a list without windows", "gpt-4o", map[string]string{
			"GET /v1/models": `{"object":"list","data":[{"id":"gpt-4o","object":"model","created":1715367049,"owned_by":"system"}]}`,
		}, 0, "", false},
		{"a proxy answering every path with a page", "m", map[string]string{
			"GET /v1/models": `<!doctype html><html></html>`, "GET /props": `<!doctype html>`, "GET /api/ps": `<html>`, "GET /api/v0/models": `<html>`,
		}, 0, "", false},
		{"a server failing", "m", map[string]string{
			"GET /v1/models": "status:503", "GET /props": "status:500",
		}, 0, "", true},
		{"a window too small to be one", "m", map[string]string{
			"GET /props": `{"default_generation_settings":{"n_ctx":512}}`,
		}, 0, "", false},
		{"a window too large to be one", "m", map[string]string{
			"GET /v1/models": `{"data":[{"id":"m","max_model_len":99999999999}]}`,
		}, 0, "", false},
		{"another model's window", "m", map[string]string{
			"GET /v1/models": `{"data":[{"id":"other","max_model_len":8192}]}`,
			"GET /api/ps":    `{"models":[{"name":"m2:latest","context_length":8192}]}`,
		}, 0, "", false},
		{"a negative window", "m", map[string]string{
			"GET /props": `{"default_generation_settings":{"n_ctx":-4096}}`,
		}, 0, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := newWindowServer(t, tt.answers)
			p := windowProvider(t, ws.URL+"/v1", tt.model)
			p.AskContextWindow(context.Background(), "")
			got, source := p.ContextWindow(tt.model)
			if got != tt.want || source != tt.source {
				t.Fatalf("ContextWindow = %d (%q), want %d (%q)", got, source, tt.want, tt.source)
			}
			p.AskContextWindow(context.Background(), tt.model)
			asks := ws.asked("GET /props")
			if want := map[bool]int{false: 1, true: 2}[tt.again]; asks != want {
				t.Errorf("GET /props asked %d times after two asks, want %d (asked again: %v)", asks, want, tt.again)
			}
			for i, a := range ws.auth {
				if a != "Bearer sk-test" {
					t.Fatalf("request %d went with Authorization %q, want the endpoint's key", i, a)
				}
			}
		})
	}
}

// A model not loaded yet is asked for again, at most maxWindowAsks times;
// once it is loaded the next ask reads its window.
func TestContextWindowAskedAgainUntilLoaded(t *testing.T) {
	var loaded atomic.Bool
	hits := atomic.Int32{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/ps":
			hits.Add(1)
			if loaded.Load() {
				_, _ = w.Write([]byte(`{"models":[{"name":"qwen3:latest","context_length":4096}]}`))
				return
			}
			_, _ = w.Write([]byte(`{"models":[]}`))
		case "/api/show":
			_, _ = w.Write([]byte(`{"parameters":""}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	p := windowProvider(t, srv.URL+"/v1", "qwen3")
	p.AskContextWindow(context.Background(), "")
	if got, _ := p.ContextWindow(""); got != 0 {
		t.Fatalf("window before loading = %d, want none", got)
	}
	loaded.Store(true)
	p.AskContextWindow(context.Background(), "")
	if got, _ := p.ContextWindow("qwen3"); got != 4096 {
		t.Fatalf("window after loading = %d, want 4096", got)
	}
	for range 5 {
		p.AskContextWindow(context.Background(), "")
	}
	if hits.Load() != 2 {
		t.Errorf("/api/ps asked %d times, want 2 (a report settles it)", hits.Load())
	}

	// Never loaded: asked maxWindowAsks times, then no more.
	loaded.Store(false)
	hits.Store(0)
	p = windowProvider(t, srv.URL+"/v1", "qwen3")
	for range maxWindowAsks + 3 {
		p.AskContextWindow(context.Background(), "")
	}
	if hits.Load() != maxWindowAsks {
		t.Errorf("/api/ps asked %d times, want %d", hits.Load(), maxWindowAsks)
	}
}

// Many requests at once ask once: the others wait for that ask.
func TestContextWindowAskedOnceAtATime(t *testing.T) {
	release := make(chan struct{})
	var props atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/props" {
			http.NotFound(w, r)
			return
		}
		props.Add(1)
		<-release
		_, _ = w.Write([]byte(`{"default_generation_settings":{"n_ctx":8192}}`))
	}))
	defer srv.Close()
	p := windowProvider(t, srv.URL+"/v1", "m")
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.AskContextWindow(context.Background(), "m")
		}()
	}
	deadline := time.Now().Add(5 * time.Second)
	for props.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if props.Load() != 1 {
		t.Errorf("/props asked %d times by 8 requests at once, want 1", props.Load())
	}
	for range 8 {
		if got, _ := p.ContextWindow("m"); got != 8192 {
			t.Fatalf("window = %d, want 8192", got)
		}
	}
}

// An endpoint that does not answer holds the ask only as long as its
// context.
func TestContextWindowAskIsBounded(t *testing.T) {
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(hang)
	p := windowProvider(t, srv.URL+"/v1", "m")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	p.AskContextWindow(ctx, "m")
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("the ask took %v on an endpoint that does not answer, want about its 100ms context", d)
	}
	if got, _ := p.ContextWindow("m"); got != 0 {
		t.Fatalf("window = %d, want none", got)
	}
}

// A base URL without /v1 asks the same paths under it.
func TestContextWindowBaseWithoutV1(t *testing.T) {
	ws := newWindowServer(t, map[string]string{"GET /props": `{"default_generation_settings":{"n_ctx":32768}}`})
	p := windowProvider(t, ws.URL+"/", "m")
	p.AskContextWindow(context.Background(), "m")
	if got, _ := p.ContextWindow("m"); got != 32768 {
		t.Fatalf("window = %d, want 32768", got)
	}
}

func TestNumCtx(t *testing.T) {
	tests := []struct {
		params string
		want   int
	}{
		{"num_ctx 8192", 8192},
		{"stop \"x\"\nnum_ctx                        16384\ntemperature 0.7", 16384},
		{"num_ctx 8192abc", 0},
		{"num_ctx", 0},
		{"num_ctx_extra 8192", 0},
		{"", 0},
	}
	for _, tt := range tests {
		if got := numCtx(tt.params); got != tt.want {
			t.Errorf("numCtx(%q) = %d, want %d", tt.params, got, tt.want)
		}
	}
}

// FuzzContextWindowAnswers serves arbitrary bodies on every source's path:
// the ask never panics, and a window it keeps is within the bounds.
func FuzzContextWindowAnswers(f *testing.F) {
	f.Add([]byte(`{"default_generation_settings":{"n_ctx":8192}}`), "m")
	f.Add([]byte(`{"models":[{"name":"m:latest","context_length":4096}]}`), "m")
	f.Add([]byte(`{"data":[{"id":"m","state":"loaded","loaded_context_length":4096,"max_model_len":1e400}]}`), "m")
	f.Add([]byte(`{"parameters":"num_ctx 99999999999999999999"}`), "m")
	f.Fuzz(func(t *testing.T, body []byte, model string) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write(body)
		}))
		defer srv.Close()
		p := windowProvider(t, srv.URL+"/v1", "fallback")
		p.AskContextWindow(context.Background(), model)
		got, source := p.ContextWindow(model)
		if got != 0 && (got < minReportedWindow || got > maxReportedWindow || source == "") {
			t.Fatalf("kept window %d from %q", got, source)
		}
	})
}
