package openai

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/golden"

	"github.com/agentls/agentls/agent/llm"
)

// conversation exercises every message shape.
var conversation = llm.Request{
	System: "You are agentls. Mode: PLAN.",
	Messages: []llm.Message{
		{Role: llm.RoleUser, Content: "What is in the repo?"},
		{Role: llm.RoleAssistant, Content: "Let me look.", ToolCalls: []agentproto.ToolCall{
			{ID: "call_1", Name: "list_files", Arguments: `{"path":"."}`},
			{ID: "call_2", Name: "read_file", Arguments: `{"path":"go.mod"}`},
		}},
		{Role: llm.RoleTool, ToolCallID: "call_1", Name: "list_files", Content: `{"files":["go.mod","main.go"]}`},
		{Role: llm.RoleTool, ToolCallID: "call_2", Name: "read_file", Content: `{"content":"module x"}`},
		{Role: llm.RoleAssistant, ToolCalls: []agentproto.ToolCall{{ID: "call_3", Name: "grep", Arguments: `{"pattern":`}}},
		{Role: llm.RoleTool, ToolCallID: "call_3", Name: "grep", Content: `{"error":"arguments are not valid JSON"}`},
		{Role: llm.RoleUser, Content: "Thanks."},
	},
	Tools: []llm.ToolSpec{
		{Name: "list_files", Description: "List files under a path.", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
		{Name: "exit_plan_mode", Description: "Leave plan mode."},
	},
}

func TestRequestShape(t *testing.T) {
	f := newFake(t, sse(textChunk("ok")))
	p := newTestProvider(t, f.URL, func(c *Config) { c.MaxTokens = 1000 })
	if _, _, err := complete(context.Background(), p.Provider, conversation); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	got := f.requestJSON(0)
	body, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "request.golden.json"), append(body, '\n'))
	h := f.requests()[0].Header
	for k, v := range map[string]string{"Authorization": "Bearer sk-test", "Accept": "text/event-stream", "Content-Type": "application/json"} {
		if h.Get(k) != v {
			t.Errorf("header %s = %q, want %q", k, h.Get(k), v)
		}
	}
}

func TestEmptyAPIKeySendsNoAuthorization(t *testing.T) {
	f := newFake(t, sse(textChunk("ok")))
	p := newTestProvider(t, f.URL, func(c *Config) { c.APIKey = "" })
	if _, _, err := complete(context.Background(), p.Provider, userRequest("hi")); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if v, ok := f.requests()[0].Header["Authorization"]; ok {
		t.Errorf("Authorization header sent: %q", v)
	}
}

func TestModelAndTokenLimit(t *testing.T) {
	tests := []struct {
		cfgModel, reqModel string
		maxTokens          int
		reqMaxTokens       int // the request's own cap (its window's answer reserve)
		wantModel          string
		wantField          string // "" when no limit is sent
		want               int    // the limit sent (maxTokens when 0)
	}{
		{cfgModel: "gpt-4.1", maxTokens: 500, wantModel: "gpt-4.1", wantField: "max_tokens"},
		{cfgModel: "llama3.1:8b", maxTokens: 500, wantModel: "llama3.1:8b", wantField: "max_tokens"},
		{cfgModel: "o1-preview", maxTokens: 500, wantModel: "o1-preview", wantField: "max_completion_tokens"},
		{cfgModel: "o3-mini", maxTokens: 500, wantModel: "o3-mini", wantField: "max_completion_tokens"},
		{cfgModel: "o4-mini", maxTokens: 500, wantModel: "o4-mini", wantField: "max_completion_tokens"},
		{cfgModel: "gpt-5-mini", maxTokens: 500, wantModel: "gpt-5-mini", wantField: "max_completion_tokens"},
		{cfgModel: "openai/gpt-5", maxTokens: 500, wantModel: "openai/gpt-5", wantField: "max_completion_tokens"},
		{cfgModel: "gpt-4.1", reqModel: "o3", maxTokens: 500, wantModel: "o3", wantField: "max_completion_tokens"},
		{cfgModel: "o3", reqModel: "gpt-4o", maxTokens: 500, wantModel: "gpt-4o", wantField: "max_tokens"},
		{cfgModel: "gpt-4.1", wantModel: "gpt-4.1"},
		{cfgModel: "llama3.1:8b", maxTokens: 8192, reqMaxTokens: 1024, wantModel: "llama3.1:8b", wantField: "max_tokens", want: 1024},
		{cfgModel: "o3", maxTokens: 500, reqMaxTokens: 1024, wantModel: "o3", wantField: "max_completion_tokens"},
		{cfgModel: "gpt-4.1", reqMaxTokens: 1024, wantModel: "gpt-4.1"}, // no cap configured: none sent
	}
	for _, tt := range tests {
		t.Run(tt.wantModel+"/"+tt.wantField, func(t *testing.T) {
			f := newFake(t, sse(textChunk("ok")))
			p := newTestProvider(t, f.URL, func(c *Config) { c.Model, c.MaxTokens = tt.cfgModel, tt.maxTokens })
			req := userRequest("hi")
			req.Model, req.MaxTokens = tt.reqModel, tt.reqMaxTokens
			if _, _, err := complete(context.Background(), p.Provider, req); err != nil {
				t.Fatalf("Complete: %v", err)
			}
			body := f.requestJSON(0)
			if body["model"] != tt.wantModel {
				t.Errorf("model = %v, want %s", body["model"], tt.wantModel)
			}
			want := tt.want
			if want == 0 {
				want = tt.maxTokens
			}
			for _, field := range []string{"max_tokens", "max_completion_tokens"} {
				v, ok := body[field]
				switch {
				case field == tt.wantField && v != float64(want):
					t.Errorf("%s = %v, want %d", field, v, want)
				case field != tt.wantField && ok:
					t.Errorf("%s = %v sent, want only %q", field, v, tt.wantField)
				}
			}
		})
	}
}

// wholeAnswer is a non-streamed chat completion with reasoning and two calls.
const wholeAnswer = `{
  "id": "chatcmpl-2", "object": "chat.completion", "created": 1, "model": "qwen3",
  "choices": [{
    "index": 0,
    "message": {
      "role": "assistant",
      "reasoning_content": "I should look first.",
      "content": "Looking.",
      "tool_calls": [
        {"id": "call_x", "type": "function", "function": {"name": "list_files", "arguments": "{\"path\":\".\"}"}},
        {"id": "call_y", "type": "function", "function": {"name": "grep", "arguments": "{\"pattern\":"}}
      ]
    },
    "finish_reason": "tool_calls"
  }],
  "usage": {"prompt_tokens": 50, "completion_tokens": 9, "total_tokens": 59}
}`

var wholeResponse = llm.Response{
	Message: withThinking(assistant("Looking.",
		agentproto.ToolCall{ID: "call_x", Name: "list_files", Arguments: `{"path":"."}`},
		agentproto.ToolCall{ID: "call_y", Name: "grep", Arguments: `{"pattern":`}),
		"I should look first.", `{"model":"gpt-4.1"}`),
	FinishReason: "tool_calls",
	Usage:        llm.Usage{InputTokens: 50, OutputTokens: 9},
}

func TestNonStreaming(t *testing.T) {
	tests := []struct {
		name       string
		noStream   bool
		wantStream bool
	}{
		{name: "NoStream config", noStream: true, wantStream: false},
		{name: "streaming request answered with plain JSON", noStream: false, wantStream: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, jsonBody(wholeAnswer))
			p := newTestProvider(t, f.URL, func(c *Config) { c.NoStream = tt.noStream })
			got, events, err := complete(context.Background(), p.Provider, conversation)
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if !reflect.DeepEqual(got, wholeResponse) {
				t.Errorf("response\n got %+v\nwant %+v", got, wholeResponse)
			}
			wantEvents := []llm.Event{thought("I should look first."), text("Looking.")}
			if !reflect.DeepEqual(events, wantEvents) {
				t.Errorf("events %q, want %q", events, wantEvents)
			}
			body := f.requestJSON(0)
			if body["stream"] != tt.wantStream {
				t.Errorf("stream = %v, want %v", body["stream"], tt.wantStream)
			}
			if _, ok := body["stream_options"]; ok != tt.wantStream {
				t.Errorf("stream_options sent = %v, want %v", ok, tt.wantStream)
			}
			if len(f.requests()) != 1 {
				t.Errorf("%d requests, want 1", len(f.requests()))
			}
		})
	}
}

func TestStreamingRequestAnsweredWithOtherJSON(t *testing.T) {
	f := newFake(t, jsonBody(`{"object":"list","data":[]}`))
	p := newTestProvider(t, f.URL, nil)
	_, _, err := complete(context.Background(), p.Provider, userRequest("hi"))
	if err == nil || !strings.Contains(err.Error(), `JSON body that is not a chat completion: {"object":"list","data":[]}`) {
		t.Fatalf("error = %v, want a malformed-answer error", err)
	}
	if len(f.requests()) != 1 {
		t.Errorf("%d requests, want 1", len(f.requests()))
	}
}

func TestNonStreamingErrors(t *testing.T) {
	f := newFake(t,
		writeError(429, map[string]string{"Retry-After": "0"}, apiError("slow down", "requests", "rate_limit_exceeded")),
		jsonBody(`{"id":"x","object":"chat.completion","choices":[]}`))
	p := newTestProvider(t, f.URL, func(c *Config) { c.NoStream = true })
	_, _, err := complete(context.Background(), p.Provider, userRequest("hi"))
	if err == nil || err.Error() != `model request failed after 2 attempts: malformed answer: the answer has no choices: {"id":"x","object":"chat.completion","choices":[]}` {
		t.Fatalf("error = %v", err)
	}
	if len(f.requests()) != 2 {
		t.Errorf("%d requests, want 2 (429 retried)", len(f.requests()))
	}
}

func TestServerThatCannotStreamSwitchesToNonStreaming(t *testing.T) {
	f := newFake(t,
		writeError(500, nil, `{"error":{"code":500,"message":"Cannot use tools with stream","type":"server_error"}}`),
		jsonBody(wholeAnswer),
		jsonBody(wholeAnswer))
	p := newTestProvider(t, f.URL, nil)
	for i := range 2 {
		got, _, err := complete(context.Background(), p.Provider, conversation)
		if err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
		if !reflect.DeepEqual(got, wholeResponse) {
			t.Errorf("call %d: response %+v", i+1, got)
		}
	}
	for i, want := range []bool{true, false, false} {
		if got := f.requestJSON(i)["stream"]; got != want {
			t.Errorf("request %d: stream = %v, want %v", i+1, got, want)
		}
	}
	if len(p.sleeps) != 0 {
		t.Errorf("slept %v before switching", p.sleeps)
	}
	if !strings.Contains(p.logs.String(), "cannot stream") {
		t.Errorf("switch not logged:\n%s", p.logs)
	}
}

func TestInvalidToolParameters(t *testing.T) {
	f := newFake(t)
	p := newTestProvider(t, f.URL, nil)
	req := userRequest("hi")
	req.Tools = []llm.ToolSpec{{Name: "broken", Parameters: json.RawMessage(`{"type":`)}}
	_, _, err := complete(context.Background(), p.Provider, req)
	if err == nil || !strings.Contains(err.Error(), "tool broken: parameters are not valid JSON") {
		t.Fatalf("error = %v", err)
	}
	if len(f.requests()) != 0 {
		t.Errorf("a request was sent")
	}
}

func TestIsJSON(t *testing.T) {
	for ct, want := range map[string]bool{
		"application/json":                true,
		"application/json; charset=utf-8": true,
		"application/problem+json":        true,
		"text/event-stream":               false,
		"text/html":                       false,
		"":                                false,
	} {
		if got := isJSON(ct); got != want {
			t.Errorf("isJSON(%q) = %v, want %v", ct, got, want)
		}
	}
}

// TestToolsJSONIsWhatIsSent: ToolsJSON is byte for byte the "tools" array of
// the request body the provider sends.
func TestToolsJSONIsWhatIsSent(t *testing.T) {
	f := newFake(t, sse(textChunk("ok")))
	p := newTestProvider(t, f.URL, nil)
	if _, _, err := complete(context.Background(), p.Provider, conversation); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	var body struct {
		Tools json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(f.requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	got, err := ToolsJSON(conversation.Tools)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(body.Tools) {
		t.Errorf("ToolsJSON = %s\nsent      %s", got, body.Tools)
	}
	if _, err := ToolsJSON([]llm.ToolSpec{{Name: "x", Parameters: json.RawMessage(`{`)}}); err == nil {
		t.Error("ToolsJSON accepts invalid parameters")
	}
}
