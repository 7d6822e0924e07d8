package server_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/fakeopenai"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestReasoningGoesBackToTheModel: a reasoning model's thinking goes back
// with its assistant messages of a turn that called tools, in the field
// its server sent it in. DeepSeek in thinking mode refuses a request
// without it ("Missing `reasoning_content` field in the assistant message
// at message index N"): before, the second request of every turn that
// used a tool failed. vLLM reads "reasoning" back (and drops
// reasoning_content).
func TestReasoningGoesBackToTheModel(t *testing.T) {
	t.Parallel()
	for _, field := range []string{"reasoning_content", "reasoning"} {
		t.Run(field, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := writeFile(dir, "notes.txt", "hello\n"); err != nil {
				t.Fatal(err)
			}
			fake := fakeopenai.New(fakeopenai.Options{ReasoningBack: backRule(field), Reply: func(r fakeopenai.Request) fakeopenai.Reply {
				last := r.Messages[len(r.Messages)-1]
				if last.Role == "user" {
					n := strings.Count(string(r.Body), `"role":"user"`)
					return fakeopenai.Reply{Reasoning: fmt.Sprintf("Turn %d: read the notes first.", n), ReasoningField: field,
						ToolCalls: []fakeopenai.ToolCall{fakeopenai.Call(fmt.Sprintf("call_%d", n), "read", `{"path":"notes.txt"}`)}}
				}
				return fakeopenai.Reply{Text: "They say hello.", Reasoning: "The tool answered.", ReasoningField: field}
			}})
			defer fake.Close()
			h := startWithFake(t, dir, fake, nil)
			s := h.NewSession("plan")
			for _, p := range []string{"what do the notes say?", "and now?"} {
				if r := h.Prompt(s.SessionID, p); r.StopReason != "end_turn" {
					t.Fatalf("prompt %q = %+v (%s)", p, r, r.Error)
				}
			}
			reqs := fake.Requests()
			if len(reqs) != 4 {
				t.Fatalf("%d requests, want 4", len(reqs))
			}
			for i, r := range reqs {
				if r.Status != 200 {
					t.Fatalf("request %d answered %d: %s", i+1, r.Status, r.Body)
				}
			}
			// The last request's history: both turns' assistant messages,
			// each with its reasoning.
			var got []string
			for _, m := range reqs[3].Messages {
				if m.Role == "assistant" {
					got = append(got, deref(m.ReasoningContent)+deref(m.Reasoning))
				}
			}
			want := []string{"Turn 1: read the notes first.", "The tool answered.", "Turn 2: read the notes first."}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Fatalf("reasoning sent back %q, want %q", got, want)
			}
			if !strings.Contains(string(reqs[3].Body), `"`+field+`":"Turn 1: read the notes first."`) {
				t.Fatalf("the reasoning did not go back as %s: %s", field, reqs[3].Body)
			}
		})
	}
}

// backRule is DeepSeek's documented rule for its field; vLLM has none.
func backRule(field string) fakeopenai.ReasoningRule {
	if field == "reasoning_content" {
		return fakeopenai.ReasoningBackInToolSpans
	}
	return ""
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TestReasoningOnEveryMessageWhenTheServerWantsIt: DeepSeek V4, as its
// users met it, wants reasoning_content on every assistant message once a
// request offers tools, even one another model wrote (it takes an empty
// one). The first refusal says so; the request is made again at once with
// it on every assistant message, and so is every later one: one refusal in
// the session, and no turn fails. Before, every request after the first
// turn was refused.
func TestReasoningOnEveryMessageWhenTheServerWantsIt(t *testing.T) {
	t.Parallel()
	fake := fakeopenai.New(fakeopenai.Options{ReasoningBack: fakeopenai.ReasoningBackOnAll, Reply: func(r fakeopenai.Request) fakeopenai.Reply {
		switch r.LastUser() {
		case "hi":
			return fakeopenai.Reply{Text: "Hello."} // as if another model had answered: no reasoning
		default:
			return fakeopenai.Reply{Text: "Sure.", Reasoning: "A greeting again."}
		}
	}})
	defer fake.Close()
	h := startWithFake(t, t.TempDir(), fake, nil)
	s := h.NewSession("plan")
	promptEach(t, h, s.SessionID, "hi", "hi again", "and again")
	if statuses := requestStatuses(fake); fmt.Sprint(statuses) != "[200 400 200 200]" {
		t.Fatalf("statuses %v, want one refusal, then the same request accepted, then no refusal", statuses)
	}
	last := fake.Requests()[3]
	var got []string
	for _, m := range last.Messages {
		if m.Role == "assistant" {
			if m.ReasoningContent == nil {
				t.Fatalf("an assistant message without reasoning_content: %s", last.Body)
			}
			got = append(got, *m.ReasoningContent)
		}
	}
	if fmt.Sprintf("%q", got) != `["" "A greeting again."]` {
		t.Fatalf("reasoning sent back %q, want the empty placeholder and the kept reasoning", got)
	}
}

// TestReasoningNotSentToAServerThatRefusesIt: Groq sends a reasoning
// model's thinking as "reasoning" but refuses it back on an assistant
// message ("property 'reasoning' is unsupported"). The first refusal is
// not a failure: the request is made again at once without it, and no
// later request carries it.
func TestReasoningNotSentToAServerThatRefusesIt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := writeFile(dir, "notes.txt", "hello\n"); err != nil {
		t.Fatal(err)
	}
	fake := fakeopenai.New(fakeopenai.Options{ReasoningBack: fakeopenai.ReasoningRefused, Reply: func(r fakeopenai.Request) fakeopenai.Reply {
		if last := r.Messages[len(r.Messages)-1]; last.Role == "user" {
			return fakeopenai.Reply{Reasoning: "Read the notes first.", ReasoningField: "reasoning",
				ToolCalls: []fakeopenai.ToolCall{fakeopenai.Call(fmt.Sprintf("call_%d", len(r.Messages)), "read", `{"path":"notes.txt"}`)}}
		}
		return fakeopenai.Reply{Text: "They say hello.", Reasoning: "The tool answered.", ReasoningField: "reasoning"}
	}})
	defer fake.Close()
	h := startWithFake(t, dir, fake, nil)
	s := h.NewSession("plan")
	promptEach(t, h, s.SessionID, "what do the notes say?", "and now?")
	if statuses := requestStatuses(fake); fmt.Sprint(statuses) != "[200 400 200 200 200]" {
		t.Fatalf("statuses %v, want one refusal, the same request accepted without the reasoning, then no refusal", statuses)
	}
}

// promptEach sends each prompt in turn; every turn must end well.
func promptEach(t *testing.T, h *lsptest.Env, sessionID string, prompts ...string) {
	t.Helper()
	for _, p := range prompts {
		if r := h.Prompt(sessionID, p); r.StopReason != "end_turn" {
			t.Fatalf("prompt %q = %+v (%s)", p, r, r.Error)
		}
	}
}

// requestStatuses are the HTTP statuses the endpoint answered its chat
// requests with, in order.
func requestStatuses(fake *fakeopenai.Server) []int {
	var out []int
	for _, r := range fake.Requests() {
		out = append(out, r.Status)
	}
	return out
}
