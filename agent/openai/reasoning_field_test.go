package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/llm"
)

// TestReasoningField: a model's reasoning streamed as "reasoning" (vLLM
// since it removed reasoning_content, Ollama, OpenRouter, Groq) shows as
// thinking, as reasoning_content does. Before, it was dropped.
func TestReasoningField(t *testing.T) {
	tests := []struct {
		name   string
		chunks []string
		want   []llm.Event
	}{
		{"vLLM", []string{chunk(map[string]any{"role": "assistant", "content": ""}, ""), chunk(map[string]any{"reasoning": "let me "}, ""),
			chunk(map[string]any{"reasoning": "think"}, ""), textChunk("Done."), finishChunk("stop")},
			[]llm.Event{thought("let me "), thought("think"), text("Done.")}},
		{"Ollama", []string{chunk(map[string]any{"role": "assistant", "content": "", "reasoning": "Hmm."}, ""),
			chunk(map[string]any{"role": "assistant", "content": "Done."}, ""), finishChunk("stop")},
			[]llm.Event{thought("Hmm."), text("Done.")}},
		{"OpenRouter, with reasoning_details and nulls", []string{
			chunk(map[string]any{"role": "assistant", "content": "", "reasoning": "Hmm.", "reasoning_details": []any{map[string]any{"type": "reasoning.text", "text": "Hmm.", "format": "unknown", "index": 0}}}, ""),
			chunk(map[string]any{"role": "assistant", "content": "Done.", "reasoning": nil}, ""), finishChunk("stop")},
			[]llm.Event{thought("Hmm."), text("Done.")}},
		{"both names, the same reasoning: shown once", []string{chunk(map[string]any{"reasoning": "Hmm.", "reasoning_content": "Hmm."}, ""),
			textChunk("Done."), finishChunk("stop")},
			[]llm.Event{thought("Hmm."), text("Done.")}},
		{"a reasoning object is left alone (go-openai ignores a key it does not know)", []string{chunk(map[string]any{"reasoning": map[string]any{"summary": "x"}, "content": "Done."}, ""), finishChunk("stop")},
			[]llm.Event{text("Done.")}},
		{"the word in the answer stays text", []string{textChunk(`{"reasoning": "no"}`), finishChunk("stop")},
			[]llm.Event{text(`{"reasoning": "no"}`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, sse(tt.chunks...))
			p := newTestProvider(t, f.URL, nil)
			_, events, err := complete(context.Background(), p.Provider, userRequest("hi"))
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if !reflect.DeepEqual(events, tt.want) {
				t.Errorf("events %q, want %q", events, tt.want)
			}
		})
	}
}

// TestReasoningFieldWhole: a whole answer (no stream, or a stream request
// answered with JSON) with message.reasoning shows it as thinking.
func TestReasoningFieldWhole(t *testing.T) {
	answer := strings.Replace(wholeAnswer, `"reasoning_content"`, `"reasoning"`, 1)
	for _, noStream := range []bool{true, false} {
		f := newFake(t, jsonBody(answer))
		p := newTestProvider(t, f.URL, func(c *Config) { c.NoStream = noStream })
		got, events, err := complete(context.Background(), p.Provider, conversation)
		if err != nil {
			t.Fatalf("Complete (no stream %v): %v", noStream, err)
		}
		want := wholeResponse
		want.Message = withThinking(want.Message, "I should look first.", `{"model":"gpt-4.1","field":"reasoning"}`)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("response\n got %+v\nwant %+v", got, want)
		}
		if want := []llm.Event{thought("I should look first."), text("Looking.")}; !reflect.DeepEqual(events, want) {
			t.Errorf("events (no stream %v) %q, want %q", noStream, events, want)
		}
	}
}

func TestReasoningAsContent(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"delta":{"reasoning":"x"}}`, `{"delta":{"reasoning_content":"x"}}`},
		{`{"delta":{"content":"","reasoning" : null}}`, `{"delta":{"content":"","reasoning_content" : null}}`},
		{"{\"a\":1,\n \"reasoning\":\t\"x\"}", "{\"a\":1,\n \"reasoning_content\":\t\"x\"}"},
		{`[{"reasoning":"a"},{"reasoning":"b"}]`, `[{"reasoning_content":"a"},{"reasoning_content":"b"}]`},
		// Left alone:
		{`{"reasoning":{"effort":"high"}}`, `{"reasoning":{"effort":"high"}}`},
		{`{"reasoning":["a"]}`, `{"reasoning":["a"]}`},
		{`{"reasoning":"x","reasoning_content":"x"}`, `{"reasoning":"x","reasoning_content":"x"}`},
		{`{"content":"say \"reasoning\": \"x\""}`, `{"content":"say \"reasoning\": \"x\""}`},
		{`{"content":"\"reasoning\""}`, `{"content":"\"reasoning\""}`},
		{`{"usage":{"reasoning_tokens":5}}`, `{"usage":{"reasoning_tokens":5}}`},
		{`{"content":"reasoning"}`, `{"content":"reasoning"}`},
		{`{"reasoning"`, `{"reasoning"`},
		{`"reasoning":"x"`, `"reasoning":"x"`},
		{``, ``},
	}
	for _, tt := range tests {
		if got := string(reasoningAsContent([]byte(tt.in))); got != tt.want {
			t.Errorf("reasoningAsContent(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzReasoningAsContent: JSON stays JSON, only keys are renamed (each by
// the same 8 bytes), and nothing changes in a text that already names
// reasoning_content.
func FuzzReasoningAsContent(f *testing.F) {
	for _, s := range []string{`{"delta":{"reasoning":"x"}}`, `{"reasoning":null,"content":"\"reasoning\":\"y\""}`, `{"a":[{"reasoning" :"b"}]}`, `{"reasoning":{"x":1}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out := reasoningAsContent(in)
		if (len(out)-len(in))%len("_content") != 0 || len(out) < len(in) {
			t.Fatalf("%q became %q", in, out)
		}
		if bytes.Contains(in, reasoningContentKey) && !bytes.Equal(in, out) {
			t.Fatalf("%q names reasoning_content and was changed to %q", in, out)
		}
		if !json.Valid(in) {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("valid %q became invalid %q", in, out)
		}
		var a, b any
		_ = json.Unmarshal(in, &a)
		_ = json.Unmarshal(out, &b)
		if !reflect.DeepEqual(strip(a), strip(b)) {
			t.Fatalf("%q became %q: more than a key renamed", in, out)
		}
	})
}

// strip is v with the keys "reasoning" and "reasoning_content" named alike.
func strip(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := map[string]any{}
		for k, e := range x {
			if k == "reasoning_content" {
				k = "reasoning"
			}
			m[k] = strip(e)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = strip(e)
		}
		return out
	}
	return v
}
