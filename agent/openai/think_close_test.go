package openai

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/llm"
)

// TestCloseOnly: reasoning without its opening tag is split off only at a
// closing tag on a line of its own after it, the answer on a line below.
func TestCloseOnly(t *testing.T) {
	tests := []struct {
		name, in, thought, answer string
		ok                        bool
	}{
		{"R1's shape", "Okay, the user says hi.\n</think>\n\nHello!", "Okay, the user says hi.", "Hello!", true},
		{"spaces around the tag", "Think.\n  </think>  \r\nAnswer.", "Think.", "Answer.", true},
		{"nothing after", "Think.\n</think>", "Think.", "", true},
		{"a tag in a sentence", "Close it with </think> and go on.", "", "", false},
		{"a tag in a code span", "Write:\n`</think>` ends it.", "", "", false},
		{"answer on the tag's line", "Think.\n</think>Answer.", "", "", false},
		{"nothing before", "\n</think>\nAnswer.", "", "", false},
		{"an opening tag before", "<b>\n<think>x\n</think>\ny", "", "", false},
		{"no tag", "Just an answer.", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			thought, answer, ok := closeOnly(tt.in)
			if ok != tt.ok || thought != tt.thought || answer != tt.answer {
				t.Errorf("closeOnly(%q) = %q, %q, %v; want %q, %q, %v", tt.in, thought, answer, ok, tt.thought, tt.answer, tt.ok)
			}
		})
	}
}

// FuzzCloseOnly: a split loses nothing but the tag and the white space
// around it, and the reasoning never holds the tag.
func FuzzCloseOnly(f *testing.F) {
	for _, s := range []string{"a\n</think>\nb", "x </think> y", "\n</think>\n", "<think>\n</think>\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		thought, answer, ok := closeOnly(in)
		if !ok {
			return
		}
		if strings.Contains(thought, thinkClose) || strings.Contains(thought, thinkOpen) || strings.TrimSpace(thought) == "" {
			t.Fatalf("closeOnly(%q): reasoning %q", in, thought)
		}
		if !strings.Contains(in, thought) || !strings.HasSuffix(in, answer) {
			t.Fatalf("closeOnly(%q) = %q, %q: not the answer's own parts", in, thought, answer)
		}
		if len(thought)+len(answer)+len(thinkClose) > len(in) {
			t.Fatalf("closeOnly(%q) = %q, %q: longer than the answer", in, thought, answer)
		}
	})
}

// TestReasoningWithoutItsOpeningTag: a model whose template opens the
// reasoning in the prompt (DeepSeek-R1's distills, QwQ) writes only
// "</think>"; a server that does not parse it out sent it all as the
// answer, and agentls kept and sent it back so. The first answer is
// split once whole (its reasoning kept apart, never sent back), the
// model's next answers are shown as thinking while they stream, and an
// answer that then never closes it is the answer after all.
func TestReasoningWithoutItsOpeningTag(t *testing.T) {
	f := newFake(t,
		sse(roleChunk(), textChunk("Okay, the user"), textChunk(" says hi.\n</th"), textChunk("ink>\n\nHello!"), finishChunk("stop")),
		sse(roleChunk(), textChunk("They ask again.\n"), textChunk("</think>\n\nStill here."), finishChunk("stop")),
		sse(roleChunk(), textChunk("Plain answer."), finishChunk("stop")),
		sse(roleChunk(), textChunk("Plain again."), finishChunk("stop")),
	)
	p := newTestProvider(t, f.URL, nil)
	req := userRequest("hi")
	steps := []struct {
		content, thinking string
		events            []llm.Event
	}{
		// Streamed before the tag told: shown as text, kept right.
		{"Hello!", "Okay, the user says hi.", []llm.Event{text("Okay, the user"), text(" says hi.\n</th"), text("ink>\n\nHello!")}},
		// From then on shown as thinking as it streams.
		{"Still here.", "They ask again.\n", []llm.Event{thought("They ask again.\n"), text("Still here.")}},
		// Never closed: the answer after all (shown as thinking, once).
		{"Plain answer.", "", []llm.Event{thought("Plain answer.")}},
		// And the model's answers start as text again.
		{"Plain again.", "", []llm.Event{text("Plain again.")}},
	}
	for i, step := range steps {
		resp, events, err := complete(context.Background(), p.Provider, req)
		if err != nil {
			t.Fatalf("answer %d: %v", i+1, err)
		}
		if resp.Message.Content != step.content || resp.Message.Thinking != step.thinking {
			t.Errorf("answer %d: content %q, thinking %q; want %q, %q", i+1, resp.Message.Content, resp.Message.Thinking, step.content, step.thinking)
		}
		if !reflect.DeepEqual(events, step.events) {
			t.Errorf("answer %d: events %+v, want %+v", i+1, events, step.events)
		}
		req.Messages = append(req.Messages, resp.Message, llm.Message{Role: llm.RoleUser, Content: "again"})
	}
	// The reasoning is never sent back: the second request holds the first answer alone.
	body := string(f.requests()[1].Body)
	if strings.Contains(body, "the user says hi") || !strings.Contains(body, `"Hello!"`) {
		t.Errorf("the second request sent the reasoning back, or not the answer: %s", body)
	}
}

// TestReasoningWithoutItsOpeningTagWhole: a whole (non-streamed) answer is
// split before it is shown, and a server that sends the reasoning apart
// ends the assumption.
func TestReasoningWithoutItsOpeningTagWhole(t *testing.T) {
	whole := func(content, reasoning string) string {
		msg := map[string]any{"role": "assistant", "content": content}
		if reasoning != "" {
			msg["reasoning_content"] = reasoning
		}
		return mustJSON(map[string]any{"id": "x", "object": "chat.completion", "model": "m",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": "stop"}}})
	}
	f := newFake(t,
		jsonBody(whole("Think first.\n</think>\n\nAnswer one.", "")),
		jsonBody(whole("Answer two.", "Parsed apart now.")),
		jsonBody(whole("Answer three.", "")),
	)
	p := newTestProvider(t, f.URL, func(c *Config) { c.NoStream = true })
	want := []struct {
		content, thinking string
		events            []llm.Event
	}{
		{"Answer one.", "Think first.", []llm.Event{thought("Think first."), text("Answer one.")}},
		{"Answer two.", "Parsed apart now.", []llm.Event{thought("Parsed apart now."), text("Answer two.")}},
		{"Answer three.", "", []llm.Event{text("Answer three.")}},
	}
	for i, w := range want {
		resp, events, err := complete(context.Background(), p.Provider, userRequest("hi"))
		if err != nil {
			t.Fatalf("answer %d: %v", i+1, err)
		}
		if resp.Message.Content != w.content || resp.Message.Thinking != w.thinking || !reflect.DeepEqual(events, w.events) {
			t.Errorf("answer %d: content %q, thinking %q, events %+v; want %q, %q, %+v", i+1, resp.Message.Content, resp.Message.Thinking, events, w.content, w.thinking, w.events)
		}
	}
}
