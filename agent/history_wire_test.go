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

// wireMessage is a message of a request as an endpoint reads it: an absent
// content or arguments told from an empty one.
type wireMessage struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	ToolCalls []struct {
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// historyRig is a session of a manager whose model is a fake OpenAI
// endpoint that checks each request's history as a provider does.
type historyRig struct {
	t    *testing.T
	m    *Manager
	s    *Session
	ed   *memEditor
	ends []string
}

// newHistoryRig starts the fake endpoint serving model, and a session in
// mode on it. check is the provider's own check of a request's messages:
// the body of its 400 for a history it refuses, "" for one it takes. A
// request it takes is answered with first() the first time, "ok" after.
func newHistoryRig(t *testing.T, model, mode string, check func([]wireMessage) string, first func() fakeopenai.Reply) *historyRig {
	t.Helper()
	var n atomic.Int32
	fake := fakeopenai.New(fakeopenai.Options{Reply: func(r fakeopenai.Request) fakeopenai.Reply {
		var body struct {
			Messages []wireMessage `json:"messages"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			return fakeopenai.Reply{Status: 400, ErrorBody: `{"error":{"message":"bad json"}}`}
		}
		if refused := check(body.Messages); refused != "" {
			return fakeopenai.Reply{Status: 400, ErrorBody: refused}
		}
		if n.Add(1) == 1 {
			return first()
		}
		return fakeopenai.Reply{Text: "ok"}
	}})
	t.Cleanup(fake.Close)
	p, err := openai.New(openai.Config{BaseURL: fake.URL, Model: model, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, func(c *config.Config) { c.Model.Name = model })
	m.Reconfigure(m.config(), p)
	return &historyRig{t: t, m: m, s: newTestSession(t, m, mode), ed: ed}
}

// prompt sends text as a prompt of the session and notes how it ended.
func (r *historyRig) prompt(text string) TurnResult {
	r.t.Helper()
	res, err := r.m.Prompt(context.Background(), PromptRequest{SessionID: r.s.ID(), Text: text})
	if err != nil {
		r.t.Fatal(err)
	}
	r.ends = append(r.ends, fmt.Sprintf("%q: %s %v", text, res.StopReason, res.Err))
	return res
}

// promptAll sends each text in turn; it says whether any prompt ended
// other than by the end of its turn.
func (r *historyRig) promptAll(texts ...string) (failed bool) {
	r.t.Helper()
	for _, text := range texts {
		failed = r.prompt(text).StopReason != agentproto.StopEndTurn || failed
	}
	return failed
}

// answeredAgain sends each text in turn until a prompt ends its turn; it
// says whether one did.
func (r *historyRig) answeredAgain(texts ...string) bool {
	r.t.Helper()
	for _, text := range texts {
		if r.prompt(text).StopReason == agentproto.StopEndTurn {
			return true
		}
	}
	return false
}

// endings is how each prompt ended, a line each.
func (r *historyRig) endings() string { return strings.Join(r.ends, "\n") }

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
	// OpenAI's own check of the history (continuedev/continue#5091).
	noNameless := func(msgs []wireMessage) string {
		for i, msg := range msgs {
			for j, c := range msg.ToolCalls {
				if c.Function.Name == "" {
					return fmt.Sprintf(`{"error":{"message":"Invalid 'messages[%d].tool_calls[%d].function.name': empty string. Expected a string with minimum length 1, but got an empty string instead.","type":"invalid_request_error","param":"messages[%d].tool_calls[%d].function.name","code":"empty_string"}}`, i, j, i, j)
				}
			}
		}
		return ""
	}
	rig := newHistoryRig(t, "gpt-4o-mini", "build", noNameless, func() fakeopenai.Reply {
		return fakeopenai.Reply{ToolCalls: []fakeopenai.ToolCall{fakeopenai.Call("call_1", "", `{"path":"main.go"}`)}}
	})
	rig.prompt("read main.go")
	if !rig.answeredAgain("hello?", "anything?") {
		t.Fatalf("after one answer with a nameless tool call, no prompt of the session is answered again:\n%s", rig.endings())
	}
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
	noEmptyAssistant := func(msgs []wireMessage) string {
		for _, msg := range msgs {
			var content string
			_ = json.Unmarshal(msg.Content, &content) // absent, null or not a string: ""
			if msg.Role == "assistant" && content == "" && msg.ToolCalls == nil {
				return `{"object":"error","message":"Assistant message must have either content or tool_calls, but not none.","type":"invalid_request_message_order","param":null,"code":"3230"}`
			}
		}
		return ""
	}
	rig := newHistoryRig(t, "mistral-large-latest", "build", noEmptyAssistant, func() fakeopenai.Reply { return fakeopenai.Reply{Text: ""} })
	rig.prompt("think hard about main.go")
	if !slices.ContainsFunc(rig.ed.notifyLines(), func(l string) bool { return strings.Contains(l, "answered with nothing") }) {
		t.Errorf("the person was not told that the model answered with nothing: %q", rig.ed.notifyLines())
	}
	if !rig.answeredAgain("hello?", "anything?") {
		t.Fatalf("after one empty answer, no prompt of the session is answered again:\n%s", rig.endings())
	}
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
	// OpenAI's own check of the history: function.arguments is required.
	argumentsRequired := func(msgs []wireMessage) string {
		for i, msg := range msgs {
			for j, c := range msg.ToolCalls {
				if c.Function.Arguments == nil {
					return fmt.Sprintf(`{"error":{"message":"Missing required parameter: 'messages[%d].tool_calls[%d].function.arguments'.","type":"invalid_request_error","param":"messages[%d].tool_calls[%d].function.arguments","code":"missing_required_parameter"}}`, i, j, i, j)
				}
			}
		}
		return ""
	}
	rig := newHistoryRig(t, "gpt-4o-mini", "plan", argumentsRequired, func() fakeopenai.Reply {
		return fakeopenai.Reply{ToolCalls: []fakeopenai.ToolCall{fakeopenai.Call("call_1", "plan_list", "")}}
	})
	if rig.promptAll("which plans are there?", "hello?") {
		t.Fatalf("a call of a tool without arguments, sent with arguments \"\", breaks the session:\n%s", rig.endings())
	}
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
	// The Mistral v0.3 template's check: system, tool results and
	// assistant messages with tool calls aside, roles alternate.
	alternating := func(msgs []wireMessage) string {
		var roles []string
		for _, msg := range msgs {
			if msg.Role == "system" || msg.Role == "tool" || (msg.Role == "assistant" && len(msg.ToolCalls) > 0) {
				continue
			}
			roles = append(roles, msg.Role)
		}
		for i, role := range roles {
			if (role == "user") != (i%2 == 0) {
				return `{"object":"error","message":"After the optional system message, conversation roles must alternate user/assistant/user/assistant/...","type":"BadRequestError","param":null,"code":400}`
			}
		}
		return ""
	}
	rig := newHistoryRig(t, "mistralai/Mistral-7B-Instruct-v0.3", "plan", alternating, func() fakeopenai.Reply {
		close(arrived)
		<-release // the model is still thinking when the user cancels
		return fakeopenai.Reply{Text: "ok"}
	})
	first := make(chan TurnResult, 1)
	go func() {
		res, _ := rig.m.Prompt(context.Background(), PromptRequest{SessionID: rig.s.ID(), Text: "explain the build"})
		first <- res
	}()
	<-arrived
	if err := rig.m.Cancel(rig.s.ID()); err != nil {
		t.Fatal(err)
	}
	res := <-first
	close(release)
	if res.StopReason != agentproto.StopCancelled {
		t.Fatalf("the rig is wrong: the first prompt ended %+v", res)
	}
	if rig.promptAll("sorry, explain the tests instead", "hello?") {
		t.Fatalf("after one prompt cancelled before its answer, the session's prompts fail:\n%s", rig.endings())
	}
}
