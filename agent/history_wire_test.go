package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentls/agentls/agent/openai"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/fakeopenai"
)

// TestToolCallWithoutANameDoesNotBreakTheSession: the model's answer holds a
// tool call with an empty function name (a model or gateway fault: it
// happens with GPT-4o mini behind some clients). agentls answers the call
// with "unknown tool", which is right. But the call is kept in the history
// as it came, and OpenAI refuses any request whose history holds it ("400
// Invalid 'messages[2].tool_calls[0].function.name': empty string. Expected a
// string with minimum length 1"), so every later request of the session
// fails: the next prompt, and the one after, get the same 400. The session
// can no longer be used (only a rewind gets it back).
func TestToolCallWithoutANameDoesNotBreakTheSession(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	fake := fakeopenai.New(fakeopenai.Options{Reply: func(r fakeopenai.Request) fakeopenai.Reply {
		// OpenAI's own check of the history (continuedev/continue#5091).
		for i, msg := range r.Messages {
			for j, c := range msg.ToolCalls {
				if c.Function.Name == "" {
					return fakeopenai.Reply{Status: 400, ErrorBody: fmt.Sprintf(`{"error":{"message":"Invalid 'messages[%d].tool_calls[%d].function.name': empty string. Expected a string with minimum length 1, but got an empty string instead.","type":"invalid_request_error","param":"messages[%d].tool_calls[%d].function.name","code":"empty_string"}}`, i, j, i, j)}
				}
			}
		}
		if n.Add(1) == 1 {
			return fakeopenai.Reply{ToolCalls: []fakeopenai.ToolCall{fakeopenai.Call("call_1", "", `{"path":"main.go"}`)}}
		}
		return fakeopenai.Reply{Text: "ok"}
	}})
	t.Cleanup(fake.Close)
	p, err := openai.New(openai.Config{BaseURL: fake.URL, Model: "gpt-4o-mini", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, func(c *config.Config) { c.Model.Name = "gpt-4o-mini" })
	m.Reconfigure(m.config(), p)
	s := newTestSession(t, m, "build")
	var ends []string
	for _, text := range []string{"read main.go", "hello?", "anything?"} {
		res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: text})
		if err != nil {
			t.Fatal(err)
		}
		ends = append(ends, fmt.Sprintf("%q: %s %v", text, res.StopReason, res.Err))
		if text != "read main.go" && res.StopReason == agentproto.StopEndTurn {
			return
		}
	}
	t.Fatalf("after one answer with a nameless tool call, no prompt of the session is answered again:\n%s", strings.Join(ends, "\n"))
}

// TestEmptyAnswerDoesNotBreakTheSession: the model answers with nothing — no
// text, no tool call (a thinking model that spent its answer on reasoning,
// a filtered answer). The turn ends; the answer is kept in the history as an
// assistant message with neither content nor tool calls, sent from then on
// as {"role":"assistant"}. Endpoints refuse such a message (Mistral:
// "Assistant message must have either content or tool_calls, but not none",
// OpenHands#8685; OpenAI: content is "required unless tool_calls … is
// specified"), so every later prompt of the session fails.
func TestEmptyAnswerDoesNotBreakTheSession(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	fake := fakeopenai.New(fakeopenai.Options{Reply: func(r fakeopenai.Request) fakeopenai.Reply {
		var body struct {
			Messages []map[string]any `json:"messages"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			return fakeopenai.Reply{Status: 400, ErrorBody: `{"error":{"message":"bad json"}}`}
		}
		for _, msg := range body.Messages {
			content, _ := msg["content"].(string)
			if msg["role"] == "assistant" && content == "" && msg["tool_calls"] == nil {
				return fakeopenai.Reply{Status: 400, ErrorBody: `{"object":"error","message":"Assistant message must have either content or tool_calls, but not none.","type":"invalid_request_message_order","param":null,"code":"3230"}`}
			}
		}
		if n.Add(1) == 1 {
			return fakeopenai.Reply{Text: ""}
		}
		return fakeopenai.Reply{Text: "ok"}
	}})
	t.Cleanup(fake.Close)
	p, err := openai.New(openai.Config{BaseURL: fake.URL, Model: "mistral-large-latest", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, func(c *config.Config) { c.Model.Name = "mistral-large-latest" })
	m.Reconfigure(m.config(), p)
	s := newTestSession(t, m, "build")
	var ends []string
	for _, text := range []string{"think hard about main.go", "hello?", "anything?"} {
		res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: text})
		if err != nil {
			t.Fatal(err)
		}
		ends = append(ends, fmt.Sprintf("%q: %s %v", text, res.StopReason, res.Err))
		if text == "think hard about main.go" && !slices.ContainsFunc(ed.notifyLines(), func(l string) bool { return strings.Contains(l, "answered with nothing") }) {
			t.Errorf("the person was not told that the model answered with nothing: %q", ed.notifyLines())
		}
		if text != "think hard about main.go" && res.StopReason == agentproto.StopEndTurn {
			return
		}
	}
	t.Fatalf("after one empty answer, no prompt of the session is answered again:\n%s", strings.Join(ends, "\n"))
}

// TestToolCallWithEmptyArgumentsDoesNotBreakTheSession: models send a call
// of a tool that takes no argument with arguments "" (gpt-4o-mini does:
// mark3labs/mcphost#117). agentls runs it as {} — right — but keeps "" in
// the history, and the encoder leaves an empty "arguments" out of the
// message. OpenAI refuses a history whose tool call has no arguments
// ("Missing required parameter: 'messages[2].tool_calls[0].function.arguments'"),
// so the turn fails at its next step and so does every later prompt.
func TestToolCallWithEmptyArgumentsDoesNotBreakTheSession(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	fake := fakeopenai.New(fakeopenai.Options{Reply: func(r fakeopenai.Request) fakeopenai.Reply {
		// OpenAI's own check of the history: function.arguments is required.
		var body struct {
			Messages []struct {
				ToolCalls []struct {
					Function map[string]any `json:"function"`
				} `json:"tool_calls"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			return fakeopenai.Reply{Status: 400, ErrorBody: `{"error":{"message":"bad json"}}`}
		}
		for i, msg := range body.Messages {
			for j, c := range msg.ToolCalls {
				if _, ok := c.Function["arguments"]; !ok {
					return fakeopenai.Reply{Status: 400, ErrorBody: fmt.Sprintf(`{"error":{"message":"Missing required parameter: 'messages[%d].tool_calls[%d].function.arguments'.","type":"invalid_request_error","param":"messages[%d].tool_calls[%d].function.arguments","code":"missing_required_parameter"}}`, i, j, i, j)}
				}
			}
		}
		if n.Add(1) == 1 {
			return fakeopenai.Reply{ToolCalls: []fakeopenai.ToolCall{fakeopenai.Call("call_1", "plan_list", "")}}
		}
		return fakeopenai.Reply{Text: "ok"}
	}})
	t.Cleanup(fake.Close)
	p, err := openai.New(openai.Config{BaseURL: fake.URL, Model: "gpt-4o-mini", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, func(c *config.Config) { c.Model.Name = "gpt-4o-mini" })
	m.Reconfigure(m.config(), p)
	s := newTestSession(t, m, "plan")
	var ends []string
	failed := false
	for _, text := range []string{"which plans are there?", "hello?"} {
		res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: text})
		if err != nil {
			t.Fatal(err)
		}
		ends = append(ends, fmt.Sprintf("%q: %s %v", text, res.StopReason, res.Err))
		failed = failed || res.StopReason != agentproto.StopEndTurn
	}
	if !failed {
		return
	}
	t.Fatalf("a call of a tool without arguments, sent with arguments \"\", breaks the session:\n%s", strings.Join(ends, "\n"))
}

// TestCancelledPromptDoesNotBreakAStrictTemplate: the user cancels a prompt
// while the model is still thinking, then asks again. The cancelled prompt
// stays in the history without an answer, so the next request holds two
// user messages in a row. Chat templates that require alternation — vLLM
// serving Mistral-7B-Instruct-v0.3 with tools, Gemma 3 (vllm-project/vllm#6862,
// google/adk-python#1373) — refuse it ("After the optional system message,
// conversation roles must alternate user/assistant/user/assistant/..."), and
// since nothing ever removes the unanswered prompt, every later prompt of
// the session fails the same way.
func TestCancelledPromptDoesNotBreakAStrictTemplate(t *testing.T) {
	t.Parallel()
	arrived, release := make(chan struct{}), make(chan struct{})
	var n atomic.Int32
	fake := fakeopenai.New(fakeopenai.Options{Reply: func(r fakeopenai.Request) fakeopenai.Reply {
		// The Mistral v0.3 template's check: system, tool results and
		// assistant messages with tool calls aside, roles alternate.
		var roles []string
		for _, msg := range r.Messages {
			if msg.Role == "system" || msg.Role == "tool" || (msg.Role == "assistant" && len(msg.ToolCalls) > 0) {
				continue
			}
			roles = append(roles, msg.Role)
		}
		for i, role := range roles {
			if (role == "user") != (i%2 == 0) {
				return fakeopenai.Reply{Status: 400, ErrorBody: `{"object":"error","message":"After the optional system message, conversation roles must alternate user/assistant/user/assistant/...","type":"BadRequestError","param":null,"code":400}`}
			}
		}
		if n.Add(1) == 1 {
			close(arrived)
			<-release // the model is still thinking when the user cancels
		}
		return fakeopenai.Reply{Text: "ok"}
	}})
	t.Cleanup(fake.Close)
	p, err := openai.New(openai.Config{BaseURL: fake.URL, Model: "mistralai/Mistral-7B-Instruct-v0.3", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, func(c *config.Config) { c.Model.Name = "mistralai/Mistral-7B-Instruct-v0.3" })
	m.Reconfigure(m.config(), p)
	s := newTestSession(t, m, "plan")
	first := make(chan TurnResult, 1)
	go func() {
		res, _ := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "explain the build"})
		first <- res
	}()
	<-arrived
	if err := m.Cancel(s.ID()); err != nil {
		t.Fatal(err)
	}
	res := <-first
	close(release)
	if res.StopReason != agentproto.StopCancelled {
		t.Fatalf("the rig is wrong: the first prompt ended %+v", res)
	}
	var ends []string
	failed := false
	for _, text := range []string{"sorry, explain the tests instead", "hello?"} {
		res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: text})
		if err != nil {
			t.Fatal(err)
		}
		ends = append(ends, fmt.Sprintf("%q: %s %v", text, res.StopReason, res.Err))
		failed = failed || res.StopReason != agentproto.StopEndTurn
	}
	if failed {
		t.Fatalf("after one prompt cancelled before its answer, the session's prompts fail:\n%s", strings.Join(ends, "\n"))
	}
}
