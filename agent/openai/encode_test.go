package openai

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// wholeRequest is the request go-openai would encode without the encoding
// cache: every message and the tools mapped and encoded on each request.
func wholeRequest(t testing.TB, p *Provider, req llm.Request, stream bool) goopenai.ChatCompletionRequest {
	t.Helper()
	creq, _, err := p.chatRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	// An empty history is sent as [], not null (the endpoint wants an array).
	creq.Messages = []goopenai.ChatCompletionMessage{}
	if req.System != "" {
		creq.Messages = append(creq.Messages, goopenai.ChatCompletionMessage{Role: goopenai.ChatMessageRoleSystem, Content: req.System})
	}
	for _, m := range req.Messages {
		creq.Messages = append(creq.Messages, chatMessage(m))
	}
	if creq.Tools, err = chatTools(req.Tools); err != nil {
		t.Fatal(err)
	}
	if stream {
		creq.Stream = true
		creq.StreamOptions = &goopenai.StreamOptions{IncludeUsage: true}
	}
	return creq
}

// TestAssembledBodyIsWhatGoOpenAIEncodes: the body assembled from cached
// pieces is byte for byte json.Marshal of the whole request, for every shape
// of request, first from an empty cache and then from a full one.
func TestAssembledBodyIsWhatGoOpenAIEncodes(t *testing.T) {
	tricky := llm.Message{Role: llm.RoleUser, Content: "<script>&amp; \u2028 \"quoted\" \\ \x01 é 😀"}
	tests := []struct {
		name      string
		req       llm.Request
		maxTokens int
		model     string
	}{
		{"conversation", conversation, 0, ""},
		{"max tokens", conversation, 1000, ""},
		{"reasoning model with max tokens", conversation, 1000, "o4-mini"},
		{"no system, no tools", llm.Request{Messages: []llm.Message{tricky}}, 0, ""},
		{"no messages", llm.Request{System: "sys", Tools: conversation.Tools}, 0, ""},
		{"nothing", llm.Request{}, 0, ""},
		{"model named like a field", llm.Request{Messages: []llm.Message{tricky}, Tools: conversation.Tools}, 0, `x","messages":[],"tools":[{"type":"function"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(Config{BaseURL: "http://127.0.0.1:1/v1", Model: "gpt-4.1", MaxTokens: tt.maxTokens})
			if err != nil {
				t.Fatal(err)
			}
			req := tt.req
			req.Model = tt.model
			for _, stream := range []bool{true, false} {
				want, err := json.Marshal(wholeRequest(t, p, req, stream))
				if err != nil {
					t.Fatal(err)
				}
				for pass := range 2 {
					creq, enc, err := p.chatRequest(req)
					if err != nil {
						t.Fatal(err)
					}
					if stream {
						creq.Stream = true
						creq.StreamOptions = &goopenai.StreamOptions{IncludeUsage: true}
					}
					got, err := body(wireRequest(creq, enc), enc)
					if err != nil {
						t.Fatal(err)
					}
					if joined := got.bytes(); string(joined) != string(want) || got.size != len(want) {
						t.Fatalf("stream=%v pass %d (size %d):\n got %s\nwant %s", stream, pass, got.size, joined, want)
					}
					read, err := io.ReadAll(got.reader())
					if err != nil || string(read) != string(want) {
						t.Fatalf("reader gave %s, %v", read, err)
					}
				}
			}
		})
	}
}

// TestEncodeCacheFollowsChanges: a message or tool set that changes is
// encoded anew, an unchanged one comes from the cache, and the cache stays
// within its budget.
func TestEncodeCacheFollowsChanges(t *testing.T) {
	c := newEncodeCache()
	m := llm.Message{Role: llm.RoleAssistant, Content: "a", ToolCalls: []agentproto.ToolCall{{ID: "1", Name: "read", Arguments: `{"path":"a"}`}}}
	first, _ := c.message(m, echoTo{})
	again, _ := c.message(m, echoTo{})
	if &first[0] != &again[0] {
		t.Error("an unchanged message was encoded again")
	}
	for _, edit := range []func(*llm.Message){
		func(m *llm.Message) { m.Content = "b" },
		func(m *llm.Message) { m.Role = llm.RoleUser },
		func(m *llm.Message) { m.ToolCallID = "x" },
		func(m *llm.Message) {
			m.ToolCalls = []agentproto.ToolCall{{ID: "1", Name: "read", Arguments: `{"path":"b"}`}}
		},
		func(m *llm.Message) { m.ToolCalls = nil },
	} {
		changed := m
		edit(&changed)
		b, _ := c.message(changed, echoTo{})
		want, _ := json.Marshal(chatMessage(changed))
		if string(b) != string(want) {
			t.Errorf("changed message encoded as %s, want %s", b, want)
		}
	}
	tools := conversation.Tools
	t1, _ := c.toolsJSON(tools)
	t2, _ := c.toolsJSON(append([]llm.ToolSpec{}, tools...))
	if &t1[0] != &t2[0] {
		t.Error("an equal tool set was encoded again")
	}
	other := append([]llm.ToolSpec{}, tools...)
	other[0].Description = "changed"
	t3, _ := c.toolsJSON(other)
	if want, _ := ToolsJSON(other); string(t3) != string(want) {
		t.Errorf("changed tools encoded as %s", t3)
	}
	c.maxBytes = 1 << 20
	big := strings.Repeat("x", 10<<10)
	for i := range 1000 {
		c.message(llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("%d%s", i, big)}, echoTo{})
	}
	if c.curBytes > c.maxBytes/2 || len(c.cur)+len(c.prev) > 60 {
		t.Errorf("cache holds %d+%d messages, %d bytes in the current generation", len(c.cur), len(c.prev), c.curBytes)
	}
}

// longRequest is a request like one late in a long session: the tool
// definitions and turns of a user prompt, a tool call and a ~4 KB result.
func longRequest(turns int) llm.Request {
	req := llm.Request{System: strings.Repeat("You are agentls, a coding agent. ", 60)}
	for i := range 12 {
		req.Tools = append(req.Tools, llm.ToolSpec{Name: fmt.Sprintf("tool%d", i), Description: strings.Repeat("Does a thing with care. ", 20),
			Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"a path relative to the workspace root"},"limit":{"type":"integer"}},"required":["path"]}`)})
	}
	result, _ := json.Marshal(map[string]string{"content": strings.Repeat("func handler(w http.ResponseWriter, r *http.Request) { serve(w, r, \"<x>\") }\n", 50)})
	for i := range turns {
		id := fmt.Sprintf("call_%d", i)
		req.Messages = append(req.Messages,
			llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("read f%d.go", i)},
			llm.Message{Role: llm.RoleAssistant, Content: "Reading it.", ToolCalls: []agentproto.ToolCall{{ID: id, Name: "read", Arguments: fmt.Sprintf(`{"path":"f%d.go"}`, i)}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: id, Name: "read", Content: string(result)},
			llm.Message{Role: llm.RoleAssistant, Content: "The file defines HTTP handlers."})
	}
	return req
}

// BenchmarkRequestBody compares encoding one late request of a 60-turn
// session as go-openai does (the whole request, every time) with assembling
// it from the encoding cache.
func BenchmarkRequestBody(b *testing.B) {
	p, err := New(Config{BaseURL: "http://127.0.0.1:1/v1", Model: "gpt-4.1"})
	if err != nil {
		b.Fatal(err)
	}
	req := longRequest(60)
	b.Run("whole", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			body, err := json.Marshal(wholeRequest(b, p, req, true))
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(body)))
		}
	})
	b.Run("cached", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			creq, enc, err := p.chatRequest(req)
			if err != nil {
				b.Fatal(err)
			}
			creq.Stream = true
			creq.StreamOptions = &goopenai.StreamOptions{IncludeUsage: true}
			body, err := body(wireRequest(creq, enc), enc)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(body.size))
		}
	})
}

// FuzzAssembledBody: for any model name, texts, tool call and tool schema,
// the assembled body is byte for byte what go-openai encodes for the whole
// request, first from an empty cache and then from a warm one.
func FuzzAssembledBody(f *testing.F) {
	f.Add("gpt-4.1", "sys", "hi <b>&", `{"path":"a"}`, "read", `{"type":"object"}`, 0)
	f.Add(`x","messages":[],"tools":[{"type":"function"}]`, "", "\u2028\x00é", `{`, "", ``, 100)
	f.Fuzz(func(t *testing.T, model, system, text, args, tool, params string, maxTokens int) {
		if model == "" {
			model = "m"
		}
		p, err := New(Config{BaseURL: "http://127.0.0.1:1/v1", Model: model, MaxTokens: maxTokens % 100000})
		if err != nil {
			t.Skip()
		}
		req := llm.Request{System: system, Messages: []llm.Message{
			{Role: llm.RoleUser, Content: text},
			{Role: llm.RoleAssistant, Content: text, ToolCalls: []agentproto.ToolCall{{ID: "c", Name: tool, Arguments: args}}},
			{Role: llm.RoleTool, ToolCallID: "c", Name: tool, Content: args},
		}}
		if tool != "" {
			req.Tools = []llm.ToolSpec{{Name: tool, Description: text, Parameters: json.RawMessage(params)}}
		}
		if _, err := chatTools(req.Tools); err != nil {
			if _, _, err := p.chatRequest(req); err == nil {
				t.Fatal("invalid tool parameters accepted")
			}
			return
		}
		want, err := json.Marshal(wholeRequest(t, p, req, true))
		if err != nil {
			t.Skip() // not encodable by go-openai either
		}
		for range 2 {
			creq, enc, err := p.chatRequest(req)
			if err != nil {
				t.Fatal(err)
			}
			creq.Stream = true
			creq.StreamOptions = &goopenai.StreamOptions{IncludeUsage: true}
			got, err := body(wireRequest(creq, enc), enc)
			if err != nil {
				t.Fatal(err)
			}
			if string(got.bytes()) != string(want) {
				t.Fatalf("got  %s\nwant %s", got.bytes(), want)
			}
		}
	})
}
