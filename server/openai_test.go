package server_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/fakeopenai"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// chatServer speaks the Chat Completions streaming protocol: it answers the
// first request with a tool call split across chunks, the next with text.
type chatServer struct {
	mu       sync.Mutex
	requests []string
	auth     []string
	status   int // when non-zero, every request fails with it
}

func (c *chatServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		// The model list, and the paths agentls asks for the context
		// window: an endpoint that has none of them.
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	c.requests = append(c.requests, string(body))
	c.auth = append(c.auth, r.Header.Get("Authorization"))
	n, status := len(c.requests), c.status
	c.mu.Unlock()
	if status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprint(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta string, finish string) {
		fin := "null"
		if finish != "" {
			fin = `"` + finish + `"`
		}
		fmt.Fprintf(w, "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":%s}]}\n\n", delta, fin)
	}
	if n == 1 {
		chunk(`{"role":"assistant","content":"Let me look."}`, "")
		chunk(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"read","arguments":""}}]}`, "")
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\":"}}]}`, "")
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":" \"notes.txt\"}"}}]}`, "")
		chunk(`{}`, "tool_calls")
	} else {
		chunk(`{"role":"assistant","content":"The notes say "}`, "")
		chunk(`{"content":"hello."}`, "")
		chunk(`{}`, "stop")
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// startWithOpenAI starts a server whose model is configured the way a user
// does it: initializationOptions naming the endpoint and the key variable.
func startWithOpenAI(t *testing.T, chat http.Handler) *lsptest.Env {
	t.Helper()
	srv := httptest.NewServer(chat)
	t.Cleanup(srv.Close)
	return startWithEndpoint(t, t.TempDir(), srv.URL+"/v1", nil, lsptest.FullCaps())
}

func TestOpenAIProviderThroughServer(t *testing.T) {
	t.Parallel()
	chat := &chatServer{}
	h := startWithOpenAI(t, chat)
	if err := writeFile(h.Dir, "notes.txt", "hello\n"); err != nil {
		t.Fatal(err)
	}
	s := h.NewSession("plan")
	if r := h.Prompt(s.SessionID, "what do the notes say?"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v (%s)", r, r.Error)
	}
	chat.mu.Lock()
	defer chat.mu.Unlock()
	if len(chat.requests) != 2 {
		t.Fatalf("%d model requests, want 2", len(chat.requests))
	}
	if chat.auth[0] != "Bearer sk-test" {
		t.Fatalf("Authorization = %q", chat.auth[0])
	}
	first, second := chat.requests[0], chat.requests[1]
	for _, want := range []string{`"model":"test-model"`, `"stream":true`, "You are in PLAN mode", `"name":"read"`} {
		if !strings.Contains(first, want) {
			t.Errorf("first request lacks %s", want)
		}
	}
	// The tool result went back to the model, with the file's content.
	if !strings.Contains(second, `"tool_call_id":"call_1"`) || !strings.Contains(second, `hello`) {
		t.Errorf("second request lacks the tool result:\n%s", second)
	}
	var text strings.Builder
	for _, u := range lsptest.Updates[agentproto.MessageChunk](h, "agent_message_chunk") {
		text.WriteString(u.Content.Text)
	}
	if got := text.String(); got != "Let me look.The notes say hello." {
		t.Fatalf("streamed text = %q", got)
	}
}

func TestOpenAIProviderErrorIsClear(t *testing.T) {
	t.Parallel()
	h := startWithOpenAI(t, &chatServer{status: http.StatusUnauthorized})
	s := h.NewSession("plan")
	r := h.Prompt(s.SessionID, "hi")
	if r.StopReason != "error" || r.Error == nil || !strings.Contains(r.Error.Message, "401") || !strings.Contains(r.Error.Message, "Incorrect API key") {
		t.Fatalf("prompt = %+v (%s)", r, r.Error)
	}
}

// TestThinkingIsShownAsThinking: a reasoning model's thinking, each way a
// server sends it — inline, <think>…</think> before the answer (vLLM
// without a reasoning parser), in reasoning_content (DeepSeek, llama.cpp)
// or in reasoning (vLLM now, Ollama, OpenRouter; before, it was dropped) —
// is shown as thinking (agent_thought_chunk), the answer as the message,
// and the next request carries the answer alone, as the model's own chat
// template would; agent/loadSession gives the thinking back with its
// message, so a reloaded chat shows it again.
func TestThinkingIsShownAsThinking(t *testing.T) {
	t.Parallel()
	const thinking = "The user greets me; greet back."
	for _, tt := range []struct {
		name  string
		reply fakeopenai.Reply
	}{
		{"inline", fakeopenai.Reply{Text: "<think>" + thinking + "</think>\n\nHello!"}},
		{"reasoning_content", fakeopenai.Reply{Text: "Hello!", Reasoning: thinking}},
		{"reasoning", fakeopenai.Reply{Text: "Hello!", Reasoning: thinking, ReasoningField: "reasoning"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			thinkingShown(t, tt.reply, thinking)
		})
	}
}

// thinkingShown prompts twice a model that answers reply and checks that
// thinking is shown as thinking, the text as the message, and that the
// next request's history holds the answer alone.
func thinkingShown(t *testing.T, reply fakeopenai.Reply, thinking string) {
	fake := fakeopenai.New(fakeopenai.Options{Reply: func(fakeopenai.Request) fakeopenai.Reply { return reply }})
	defer fake.Close()
	h := startWithFake(t, t.TempDir(), fake, nil)
	s := h.NewSession("plan")
	for _, p := range []string{"hi", "hi again"} {
		if r := h.Prompt(s.SessionID, p); r.StopReason != "end_turn" {
			t.Fatalf("prompt %q = %+v (%s)", p, r, r.Error)
		}
	}
	join := func(kind string) string {
		var b strings.Builder
		for _, u := range lsptest.Updates[agentproto.MessageChunk](h, kind) {
			b.WriteString(u.Content.Text)
		}
		return b.String()
	}
	if got := join("agent_thought_chunk"); got != strings.Repeat(thinking, 2) {
		t.Fatalf("thinking shown = %q", got)
	}
	if got := join("agent_message_chunk"); got != "Hello!Hello!" {
		t.Fatalf("message shown = %q", got)
	}
	reqs := fake.Requests()
	second := reqs[len(reqs)-1]
	if !strings.Contains(string(second.Body), `"content":"Hello!"`) || strings.Contains(string(second.Body), "greet back") {
		t.Fatalf("the next request's history = %s, want the answer alone", second.Body)
	}
	// A reloaded chat shows the thinking again, with its answer.
	var kept []string
	for _, m := range h.LoadSession(s.SessionID).Messages {
		if m.Role == "assistant" {
			kept = append(kept, m.Thinking+"|"+m.Content)
		}
	}
	if want := thinking + "|Hello!"; len(kept) != 2 || kept[0] != want || kept[1] != want {
		t.Fatalf("loaded assistant messages (thinking|content) %q, want two of %q", kept, want)
	}
}
