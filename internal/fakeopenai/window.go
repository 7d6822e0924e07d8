package fakeopenai

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// ServerKind is a kind of OpenAI-compatible server, by the way it reports
// a model's context window.
type ServerKind string

// The servers whose reports agentls reads.
const (
	KindVLLM       ServerKind = "vllm"       // GET /v1/models: max_model_len
	KindOpenRouter ServerKind = "openrouter" // GET /v1/models: context_length
	KindLlamaCpp   ServerKind = "llamacpp"   // GET /props: default_generation_settings.n_ctx
	KindLMStudio   ServerKind = "lmstudio"   // GET /api/v1/models: loaded_instances' context_length; /api/v0/models: loaded_context_length
	KindOllama     ServerKind = "ollama"     // GET /api/ps: context_length; POST /api/show: num_ctx
)

// WindowReport is how a Server reports its model's context window.
type WindowReport struct {
	Kind   ServerKind
	Tokens int
	// Model is the model reported ("": Options.Models' first, else
	// "fake-model").
	Model string
	// LoadedByChat (LM Studio, Ollama): the model is listed as loaded, with
	// its window, only once a chat request was answered.
	LoadedByChat bool
	// NumCtx (Ollama): the num_ctx /api/show reports from the model's
	// Modelfile (0: none).
	NumCtx int
}

// Asks are the requests for information (GET, and Ollama's POST /api/show)
// the server received, as "METHOD /path", in order. They are not chat
// requests and are not in Requests.
func (s *Server) Asks() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.asks...)
}

// serveInfo answers a request for information: the model list
// (Options.Models) and the window reports of Options.Window's kind of
// server; anything else is answered 404.
func (s *Server) serveInfo(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.asks = append(s.asks, r.Method+" "+r.URL.Path)
	loaded := s.chatted || !s.opts.Window.LoadedByChat
	s.mu.Unlock()
	rep := s.opts.Window
	if rep.Tokens == 0 {
		rep.Kind = ""
	}
	model := rep.Model
	switch {
	case model != "":
	case len(s.opts.Models) > 0:
		model = s.opts.Models[0]
	default:
		model = "fake-model"
	}
	var body any
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models" && (s.opts.Models != nil || rep.Kind == KindVLLM || rep.Kind == KindOpenRouter):
		body = s.modelList(rep, model)
	case r.Method == http.MethodGet && r.URL.Path == "/props" && rep.Kind == KindLlamaCpp:
		body = map[string]any{"default_generation_settings": map[string]any{"n_ctx": rep.Tokens}, "total_slots": 1}
	case r.Method == http.MethodGet && r.URL.Path == "/api/v0/models" && rep.Kind == KindLMStudio:
		m := map[string]any{"id": model, "object": "model", "type": "llm", "state": "not-loaded", "max_context_length": 131072}
		if loaded {
			m["state"], m["loaded_context_length"] = "loaded", rep.Tokens
		}
		body = map[string]any{"object": "list", "data": []any{m}}
	case r.Method == http.MethodGet && r.URL.Path == "/api/v1/models" && rep.Kind == KindLMStudio:
		instances := []any{}
		if loaded {
			instances = append(instances, map[string]any{"id": model, "config": map[string]any{"context_length": rep.Tokens}})
		}
		body = map[string]any{"models": []any{map[string]any{"type": "llm", "key": model, "max_context_length": 131072, "loaded_instances": instances}}}
	case r.Method == http.MethodGet && r.URL.Path == "/api/ps" && rep.Kind == KindOllama:
		models := []any{}
		if loaded {
			models = append(models, map[string]any{"name": model + ":latest", "model": model + ":latest", "size": 1, "context_length": rep.Tokens})
		}
		body = map[string]any{"models": models}
	case r.Method == http.MethodPost && r.URL.Path == "/api/show" && rep.Kind == KindOllama:
		params := "stop                           \"<|im_end|>\""
		if rep.NumCtx > 0 {
			params += fmt.Sprintf("\nnum_ctx                        %d", rep.NumCtx)
		}
		body = map[string]any{"parameters": params, "model_info": map[string]any{"general.architecture": "qwen2", "qwen2.context_length": 32768}}
	default:
		writeError(w, http.StatusNotFound, fmt.Sprintf(`{"error":{"message":"no route %s %s","type":"invalid_request_error"}}`, r.Method, strings.ReplaceAll(r.URL.Path, `"`, "")))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(body)
}

// modelList is GET /v1/models: Options.Models (else model), with the
// window where rep's kind of server lists it.
func (s *Server) modelList(rep WindowReport, model string) any {
	ids := s.opts.Models
	if ids == nil {
		ids = []string{model}
	}
	data := []any{}
	for _, id := range ids {
		m := map[string]any{"id": id, "object": "model", "owned_by": "fake"}
		switch rep.Kind {
		case KindVLLM:
			m["max_model_len"] = rep.Tokens
		case KindOpenRouter:
			m["context_length"] = rep.Tokens
		}
		data = append(data, m)
	}
	return map[string]any{"object": "list", "data": data}
}
