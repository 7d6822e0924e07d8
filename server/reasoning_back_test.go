package server_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/fakeopenai"
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
			fake := fakeopenai.New(fakeopenai.Options{NeedsReasoningBack: field == "reasoning_content", Reply: func(r fakeopenai.Request) fakeopenai.Reply {
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
					got = append(got, m.ReasoningContent+m.Reasoning)
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
