package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// maxWindowAsks bounds how often the endpoint is asked for one model's
// context window: an Ollama or LM Studio that has not loaded the model yet
// knows its window only after the first request, so an answer of "not
// loaded" (or a failure) is asked again before a later request.
const maxWindowAsks = 4

// maxWindowBody bounds an answer read while asking (OpenRouter's model list
// is about a megabyte).
const maxWindowBody = 8 << 20

// A reported window outside these bounds is no window (a server's
// placeholder or a fault) and is ignored.
const (
	minReportedWindow = 1024
	maxReportedWindow = 1 << 24
)

// windowCache is what the endpoint reported of each model's context window.
type windowCache struct {
	mu sync.Mutex
	m  map[string]*windowEntry
}

// windowEntry is one model's report.
type windowEntry struct {
	tokens  int    // the reported window (0: none)
	source  string // where it was read, e.g. "llama.cpp /props"
	asks    int
	settled bool          // the endpoint answered for good: nothing more to ask
	flight  chan struct{} // closed when the ask in flight ends (nil: none)
}

// ContextWindow is the context window the endpoint reported for model (""
// means Config.Model) and where it was read; 0 when it reported none (yet).
// It does not block.
func (p *Provider) ContextWindow(model string) (tokens int, source string) {
	model = p.modelName(model)
	p.windows.mu.Lock()
	defer p.windows.mu.Unlock()
	if e := p.windows.m[model]; e != nil {
		return e.tokens, e.source
	}
	return 0, ""
}

// AskContextWindow asks the endpoint for model's context window (""
// means Config.Model), unless it answered for good already, it was asked
// maxWindowAsks times, or an ask is in flight (then it waits for that one).
// Each server that serves OpenAI's API says its window its own way, and
// the sources are asked at once: the model list (vLLM's max_model_len,
// OpenRouter's context_length, Groq's context_window), llama.cpp's /props,
// LM Studio's /api/v1/models (and /api/v0/models) and Ollama's /api/ps and
// /api/show. It returns
// when they answered or ctx ends; ContextWindow then has the result.
func (p *Provider) AskContextWindow(ctx context.Context, model string) {
	model = p.modelName(model)
	p.windows.mu.Lock()
	if p.windows.m == nil {
		p.windows.m = map[string]*windowEntry{}
	}
	e := p.windows.m[model]
	if e == nil {
		e = &windowEntry{}
		p.windows.m[model] = e
	}
	if e.settled || e.asks >= maxWindowAsks {
		p.windows.mu.Unlock()
		return
	}
	if ch := e.flight; ch != nil {
		p.windows.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
		}
		return
	}
	e.asks++
	ch := make(chan struct{})
	e.flight = ch
	p.windows.mu.Unlock()

	r := p.askWindow(ctx, model)

	p.windows.mu.Lock()
	if r.tokens > 0 {
		e.tokens, e.source = r.tokens, r.source
	}
	e.settled = r.tokens > 0 || !r.later
	e.flight = nil
	asks := e.asks
	p.windows.mu.Unlock()
	close(ch)
	if r.tokens > 0 {
		slog.Info("the endpoint reports the model's context window", "model", model, "tokens", r.tokens, "source", r.source)
	} else {
		slog.Debug("the endpoint reports no context window", "model", model, "ask", asks, "again", r.later)
	}
}

// modelName is model, or Config.Model when it is empty.
func (p *Provider) modelName(model string) string {
	if model == "" {
		return p.cfg.Model
	}
	return model
}

// windowReport is one source's answer: a window, or whether to ask again
// later (the model is not loaded yet, or the source failed for a reason
// that may pass).
type windowReport struct {
	tokens int
	source string
	later  bool
}

// windowSource asks one source for model's window.
type windowSource func(ctx context.Context, p *Provider, model string) windowReport

// windowSources are the sources, the first one that reports a window
// winning: the running server's own numbers before a model list's.
var windowSources = []windowSource{llamaCppWindow, lmStudioWindow, lmStudioV0Window, ollamaWindow, listedWindow}

// askWindow asks every source at once and returns the first report with a
// window, in windowSources' order; without one, later is set when any
// source said to ask again.
func (p *Provider) askWindow(ctx context.Context, model string) windowReport {
	reports := make([]windowReport, len(windowSources))
	var wg sync.WaitGroup
	for i, src := range windowSources {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reports[i] = src(ctx, p, model)
		}()
	}
	wg.Wait()
	out := windowReport{}
	for _, r := range reports {
		if r.tokens > 0 {
			return r
		}
		out.later = out.later || r.later
	}
	return out
}

// serverRoot is the endpoint's base URL without its trailing /v1: where
// llama.cpp, LM Studio and Ollama serve their own APIs.
func (p *Provider) serverRoot() string {
	base := strings.TrimSuffix(p.cfg.BaseURL, "/")
	return strings.TrimSuffix(base, "/v1")
}

// errLater marks a failure worth asking again for: the server was not
// reached, timed out, or answered 429 or 5xx.
var errLater = errors.New("ask again later")

// getJSON sends a request to url (a body when body is not nil, as JSON) with
// the endpoint's key and decodes a 2xx answer into out. A 4xx answer is an
// error; a failure that may pass wraps errLater.
func (p *Provider) getJSON(ctx context.Context, method, url string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if p.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+p.cfg.APIKey)
	}
	resp, err := p.cfg.HTTPClient.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w: %w", method, url, errLater, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		return fmt.Errorf("%s %s: %s: %w", method, url, resp.Status, errLater)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("%s %s: %s", method, url, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxWindowBody+1))
	if err != nil {
		return fmt.Errorf("%s %s: %w: %w", method, url, errLater, err)
	}
	if len(b) > maxWindowBody {
		return fmt.Errorf("%s %s: the answer is over %d bytes", method, url, maxWindowBody)
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("%s %s: %w", method, url, err)
	}
	return nil
}

// failed is the report of a source whose request failed with err.
func failed(err error) windowReport {
	return windowReport{later: errors.Is(err, errLater)}
}

// reported is the report of window read from source, or none when window
// is out of bounds.
func reported(window int, source string) windowReport {
	if window < minReportedWindow || window > maxReportedWindow {
		return windowReport{}
	}
	return windowReport{tokens: window, source: source}
}

// listedWindow reads model's entry in GET /models: vLLM's max_model_len,
// LM Studio's loaded_context_length, Groq's context_window and
// OpenRouter's context_length (llama.cpp's n_ctx_train is the trained
// length, not the server's, and is not read).
func listedWindow(ctx context.Context, p *Provider, model string) windowReport {
	var list struct {
		Data []struct {
			ID                  string `json:"id"`
			MaxModelLen         int    `json:"max_model_len"`
			LoadedContextLength int    `json:"loaded_context_length"`
			ContextWindow       int    `json:"context_window"`
			ContextLength       int    `json:"context_length"`
		} `json:"data"`
	}
	if err := p.getJSON(ctx, http.MethodGet, strings.TrimSuffix(p.cfg.BaseURL, "/")+"/models", nil, &list); err != nil {
		return failed(err)
	}
	for _, m := range list.Data {
		if m.ID != model {
			continue
		}
		for _, f := range []struct {
			n    int
			name string
		}{{m.MaxModelLen, "max_model_len"}, {m.LoadedContextLength, "loaded_context_length"}, {m.ContextWindow, "context_window"}, {m.ContextLength, "context_length"}} {
			if f.n > 0 {
				return reported(f.n, "the model list's "+f.name)
			}
		}
	}
	return windowReport{}
}

// llamaCppWindow reads llama.cpp's GET /props: the context of one of its
// slots, what a request may fill.
func llamaCppWindow(ctx context.Context, p *Provider, _ string) windowReport {
	var props struct {
		Settings struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	if err := p.getJSON(ctx, http.MethodGet, p.serverRoot()+"/props", nil, &props); err != nil {
		return failed(err)
	}
	return reported(props.Settings.NCtx, "llama.cpp /props")
}

// lmStudioWindow reads LM Studio's GET /api/v1/models (its REST API since
// 0.4): a loaded instance's context length. A model not loaded yet is
// loaded by the first request, with the context its settings give: asked
// again later.
func lmStudioWindow(ctx context.Context, p *Provider, model string) windowReport {
	var list struct {
		Models []struct {
			Key             string `json:"key"`
			LoadedInstances []struct {
				Config struct {
					ContextLength int `json:"context_length"`
				} `json:"config"`
			} `json:"loaded_instances"`
		} `json:"models"`
	}
	if err := p.getJSON(ctx, http.MethodGet, p.serverRoot()+"/api/v1/models", nil, &list); err != nil {
		return failed(err)
	}
	for _, m := range list.Models {
		if m.Key != model {
			continue
		}
		for _, in := range m.LoadedInstances {
			if in.Config.ContextLength > 0 {
				return reported(in.Config.ContextLength, "LM Studio /api/v1/models")
			}
		}
		return windowReport{later: len(m.LoadedInstances) == 0}
	}
	return windowReport{}
}

// lmStudioV0Window reads LM Studio's GET /api/v0/models (before 0.4): a
// loaded model's context length, as lmStudioWindow does.
func lmStudioV0Window(ctx context.Context, p *Provider, model string) windowReport {
	var list struct {
		Data []struct {
			ID                  string `json:"id"`
			State               string `json:"state"`
			LoadedContextLength int    `json:"loaded_context_length"`
		} `json:"data"`
	}
	if err := p.getJSON(ctx, http.MethodGet, p.serverRoot()+"/api/v0/models", nil, &list); err != nil {
		return failed(err)
	}
	for _, m := range list.Data {
		if m.ID != model {
			continue
		}
		if m.LoadedContextLength > 0 {
			return reported(m.LoadedContextLength, "LM Studio /api/v0/models")
		}
		return windowReport{later: m.State != "loaded"}
	}
	return windowReport{}
}

// ollamaWindow reads Ollama's GET /api/ps, the loaded models and their
// context lengths, and for a model not loaded yet its Modelfile's num_ctx
// (POST /api/show), which loading it will use. Without either, Ollama
// loads it with its server's default (OLLAMA_CONTEXT_LENGTH): asked again
// after the first request.
func ollamaWindow(ctx context.Context, p *Provider, model string) windowReport {
	var ps struct {
		Models *[]struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	root := p.serverRoot()
	if err := p.getJSON(ctx, http.MethodGet, root+"/api/ps", nil, &ps); err != nil {
		return failed(err)
	}
	if ps.Models == nil {
		return windowReport{} // not Ollama's answer
	}
	loaded := false
	for _, m := range *ps.Models {
		if ollamaName(m.Name, model) || ollamaName(m.Model, model) {
			if m.ContextLength > 0 {
				return reported(m.ContextLength, "Ollama /api/ps")
			}
			loaded = true // an Ollama that does not say: its default, unknown here
		}
	}
	var show struct {
		Parameters string `json:"parameters"`
	}
	if err := p.getJSON(ctx, http.MethodPost, root+"/api/show", map[string]string{"model": model}, &show); err != nil {
		return failed(err)
	}
	if n := numCtx(show.Parameters); n > 0 {
		return reported(n, "Ollama /api/show num_ctx")
	}
	return windowReport{later: !loaded}
}

// ollamaName reports whether name, as Ollama lists it, is model: a model
// without a tag is its "latest".
func ollamaName(name, model string) bool {
	return name != "" && (name == model || !strings.Contains(model, ":") && name == model+":latest")
}

// numCtx is the num_ctx of an Ollama model's parameters ("num_ctx 8192" on
// a line of its own; 0 when none).
func numCtx(parameters string) int {
	for _, line := range strings.Split(parameters, "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "num_ctx" {
			if n, err := strconv.Atoi(f[1]); err == nil {
				return n
			}
		}
	}
	return 0
}
