package openai

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/llm/kit"
	"github.com/agentls/agentls/agentproto"
)

func TestEchoSpans(t *testing.T) {
	u := llm.Message{Role: llm.RoleUser}
	a := llm.Message{Role: llm.RoleAssistant}
	call := llm.Message{Role: llm.RoleAssistant, ToolCalls: []agentproto.ToolCall{{ID: "c", Name: "read"}}}
	res := llm.Message{Role: llm.RoleTool, ToolCallID: "c"}
	tests := []struct {
		name string
		msgs []llm.Message
		want string // one letter a message: x sent back, . not
	}{
		{"a turn without tools", []llm.Message{u, a}, ".."},
		{"a turn with a tool", []llm.Message{u, call, res, a}, ".x.x"},
		{"an earlier turn with tools, a later one without", []llm.Message{u, call, res, a, u, a}, ".x.x.."},
		{"the current turn's loop", []llm.Message{u, a, u, call, res}, "...x."},
		{"no user message (a sub-agent's history)", []llm.Message{call, res, a}, "x.x"},
		{"nothing", nil, ""},
	}
	for _, tt := range tests {
		var b strings.Builder
		for _, m := range echoSpans(tt.msgs) {
			if m {
				b.WriteByte('x')
			} else {
				b.WriteByte('.')
			}
		}
		if b.String() != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, b.String(), tt.want)
		}
	}
}

func TestReasoningEcho(t *testing.T) {
	kept := func(model, field, text string) llm.Message {
		m := llm.Message{Role: llm.RoleAssistant, Content: "x"}
		keepReasoning(&m, model, field, text)
		return m
	}
	placeholder := echo{fieldReasoningContent, ""}
	tests := []struct {
		name string
		m    llm.Message
		to   echoTo
		want echo
	}{
		{"the model that wrote it", kept("deepseek-v4-pro", fieldReasoningContent, "hmm"), echoTo{model: "deepseek-v4-pro"}, echo{fieldReasoningContent, "hmm"}},
		{"in vLLM's field", kept("qwen3", fieldReasoning, "hmm"), echoTo{model: "qwen3"}, echo{fieldReasoning, "hmm"}},
		{"another model: its thinking stays", kept("deepseek-v4-pro", fieldReasoningContent, "hmm"), echoTo{model: "gpt-4.1"}, echo{}},
		{"another model's, to a server that wants one on each", kept("glm-5", fieldReasoningContent, "hmm"), echoTo{model: "deepseek-v4-pro", placeholder: true}, placeholder},
		{"the model's own, to a server that wants one on each", kept("deepseek-v4-pro", fieldReasoningContent, "hmm"), echoTo{model: "deepseek-v4-pro", placeholder: true}, echo{fieldReasoningContent, "hmm"}},
		{"none kept, to a server that wants one on each", llm.Message{Role: llm.RoleAssistant}, echoTo{model: "m", placeholder: true}, placeholder},
		{"no reasoning kept", kept("m", fieldReasoningContent, ""), echoTo{model: "m"}, echo{}},
		{"another provider's state", llm.Message{Role: llm.RoleAssistant, Thinking: "hmm", ProviderState: json.RawMessage(`{"items":[1]}`)}, echoTo{model: "m"}, echo{}},
		{"a broken state", llm.Message{Role: llm.RoleAssistant, Thinking: "hmm", ProviderState: json.RawMessage(`{"model":`)}, echoTo{model: "m"}, echo{}},
		{"thinking no provider kept", llm.Message{Role: llm.RoleAssistant, Thinking: "hmm"}, echoTo{model: "m"}, echo{}},
		{"not an assistant's", llm.Message{Role: llm.RoleUser, Thinking: "hmm", ProviderState: kept("m", fieldReasoningContent, "hmm").ProviderState}, echoTo{model: "m", placeholder: true}, echo{}},
		{"nobody's", kept("m", fieldReasoningContent, "hmm"), echoTo{}, echo{}},
	}
	for _, tt := range tests {
		if got := reasoningEcho(tt.m, tt.to); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestMessageJSONWithReasoning: reasoning sent back as reasoning_content
// is byte for byte what encoding/json makes of go-openai's message with
// it, and "reasoning" takes its place.
func TestMessageJSONWithReasoning(t *testing.T) {
	m := llm.Message{Role: llm.RoleAssistant, Content: "Looking.", ToolCalls: []agentproto.ToolCall{{ID: "c", Name: "read", Arguments: `{}`}}}
	c := chatMessage(m)
	c.ReasoningContent = "I <should> look \"first\".\n"
	want, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if got := messageJSON(m, echo{fieldReasoningContent, c.ReasoningContent}); !bytes.Equal(got, want) {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if got := messageJSON(m, echo{fieldReasoningContent, ""}); !bytes.Contains(got, []byte(`"content":"Looking.","reasoning_content":"","tool_calls"`)) {
		t.Fatalf("the empty placeholder is not sent: %s", got)
	}
	got := messageJSON(m, echo{fieldReasoning, c.ReasoningContent})
	if !bytes.Equal(got, bytes.Replace(want, []byte(`"reasoning_content"`), []byte(`"reasoning"`), 1)) {
		t.Fatalf("in vLLM's field: %s", got)
	}
}

// TestEncodedReasoningFollowsTheModel: one history, encoded for the model
// that wrote its reasoning and for another (a session that switched
// models): only the first carries it, cache or not; for a server that
// wants reasoning on every assistant message, the other gets an empty
// one.
func TestEncodedReasoningFollowsTheModel(t *testing.T) {
	call := llm.Message{Role: llm.RoleAssistant, ToolCalls: []agentproto.ToolCall{{ID: "c", Name: "read", Arguments: `{}`}}}
	keepReasoning(&call, "deepseek-v4-pro", fieldReasoningContent, "read it first")
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}, call, {Role: llm.RoleTool, ToolCallID: "c", Content: "{}"}}}
	c := newEncodeCache()
	for range 2 {
		for _, tt := range []struct {
			model string
			want  bool
		}{{"deepseek-v4-pro", true}, {"gpt-4.1", false}} {
			enc, err := c.request(req, tt.model, echoInSpans)
			if err != nil {
				t.Fatal(err)
			}
			if got := bytes.Contains(enc.messages[1], []byte(`"reasoning_content":"read it first"`)); got != tt.want {
				t.Fatalf("for %s: %s (reasoning sent: %v, want %v)", tt.model, enc.messages[1], got, tt.want)
			}
		}
		enc, err := c.request(req, "gpt-4.1", echoOnAll)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(enc.messages[1], []byte(`"reasoning_content":""`)) {
			t.Fatalf("with a placeholder for every assistant message: %s", enc.messages[1])
		}
		if enc, _ = c.request(req, "deepseek-v4-pro", echoNone); bytes.Contains(enc.messages[1], []byte(`reasoning`)) {
			t.Fatalf("for a server that refuses reasoning: %s", enc.messages[1])
		}
	}
}

// TestReasoningRefusalsAndDemands sorts servers' errors about the
// reasoning sent back: a demand for it (DeepSeek), a refusal of it (Groq,
// a strict schema), or neither.
func TestReasoningRefusalsAndDemands(t *testing.T) {
	tests := []struct {
		status            int
		message           string
		demanded, refused bool
	}{
		{400, "Missing `reasoning_content` field in the assistant message at message index 2. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls", true, false},
		{400, "The `reasoning_content` in the thinking mode must be passed back to the API.", true, false},
		{400, "'messages.2' : for 'role:assistant' the following must be satisfied[('messages.2' : property 'reasoning' is unsupported, did you mean 'role'?)]", false, true},
		{400, "'messages.1' : for 'role:assistant' the following must be satisfied[('messages.1' : property 'reasoning_content' is unsupported)]", false, true},
		{400, "messages[3].reasoning: reasoning is not supported with this model", false, true},
		{400, "Additional properties are not allowed ('reasoning_content' was unexpected) - 'messages.1'", false, true},
		{422, "messages.1.assistant.reasoning: Extra inputs are not permitted", false, true},
		{400, "This model's maximum context length is 8192 tokens.", false, false},
		{500, "property 'reasoning' is unsupported", false, false},
		{429, "The `reasoning_content` in the thinking mode must be passed back to the API.", false, false},
	}
	for _, tt := range tests {
		e := &kit.Error{StatusCode: tt.status, Message: tt.message}
		if got := reasoningDemanded(e); got != tt.demanded {
			t.Errorf("reasoningDemanded(%d %q) = %v", tt.status, tt.message, got)
		}
		if got := reasoningRefused(e); got != tt.refused {
			t.Errorf("reasoningRefused(%d %q) = %v", tt.status, tt.message, got)
		}
	}
}
