package openai

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

func text(s string) llm.Event    { return llm.Event{Kind: llm.EventText, Text: s} }
func thought(s string) llm.Event { return llm.Event{Kind: llm.EventThought, Text: s} }

func assistant(content string, calls ...agentproto.ToolCall) llm.Message {
	return llm.Message{Role: llm.RoleAssistant, Content: content, ToolCalls: calls}
}

// splitArgs streams args one character per chunk at the given index.
func splitArgs(index int, args string) []string {
	var out []string
	for _, r := range args {
		out = append(out, callChunk(call(index, "", "", string(r))))
	}
	return out
}

func TestStreaming(t *testing.T) {
	const args = `{"path":"agent/llm/llm.go","line":42}`
	interleaved := []string{
		roleChunk(),
		callChunk(call(0, "call_a", "read_file", "")),
		callChunk(call(1, "call_b", "grep", "")),
	}
	for i, pieces := 0, [][2]string{{`{"path":`, `{"pattern":`}, {`"a.go"`, `"TODO"`}, {`}`, `}`}}; i < len(pieces); i++ {
		interleaved = append(interleaved,
			callChunk(call(0, "", "", pieces[i][0])),
			callChunk(call(1, "", "", pieces[i][1])))
	}
	interleaved = append(interleaved, finishChunk("tool_calls"))

	tests := []struct {
		name       string
		chunks     []string
		want       llm.Response
		wantEvents []llm.Event
	}{{
		name:       "plain text",
		chunks:     []string{roleChunk(), textChunk("Hel"), textChunk("lo"), textChunk(" world"), finishChunk("stop")},
		want:       llm.Response{Message: assistant("Hello world"), FinishReason: "stop"},
		wantEvents: []llm.Event{text("Hel"), text("lo"), text(" world")},
	}, {
		name:       "reasoning then text",
		chunks:     []string{thoughtChunk("let me "), thoughtChunk("think"), textChunk("Done."), finishChunk("stop")},
		want:       llm.Response{Message: withThinking(assistant("Done."), "let me think", `{"model":"gpt-4.1"}`), FinishReason: "stop"},
		wantEvents: []llm.Event{thought("let me "), thought("think"), text("Done.")},
	}, {
		name: "inline reasoning, its tags split across chunks",
		chunks: []string{roleChunk(), textChunk("\n<thi"), textChunk("nk>let me "), textChunk("think</th"), textChunk("ink>\n\nDo"),
			textChunk("ne."), finishChunk("stop")},
		want:       llm.Response{Message: withThinking(assistant("Done."), "let me think", ""), FinishReason: "stop"},
		wantEvents: []llm.Event{thought("let me "), thought("think"), text("Do"), text("ne.")},
	}, {
		name:       "a think tag later in the text is text",
		chunks:     []string{textChunk("Use "), textChunk("<think> tags."), finishChunk("stop")},
		want:       llm.Response{Message: assistant("Use <think> tags."), FinishReason: "stop"},
		wantEvents: []llm.Event{text("Use "), text("<think> tags.")},
	}, {
		name:       "inline reasoning cut off before its end",
		chunks:     []string{textChunk("<think>step one</"), finishChunk("length")},
		want:       llm.Response{Message: withThinking(assistant(""), "step one</", ""), FinishReason: "length"},
		wantEvents: []llm.Event{thought("step one"), thought("</")},
	}, {
		name:       "usage chunk",
		chunks:     []string{textChunk("hi"), finishChunk("stop"), usageChunk(120, 7)},
		want:       llm.Response{Message: assistant("hi"), FinishReason: "stop", Usage: llm.Usage{InputTokens: 120, OutputTokens: 7}},
		wantEvents: []llm.Event{text("hi")},
	}, {
		name:       "usage chunk with prompt-cache hits",
		chunks:     []string{textChunk("hi"), finishChunk("stop"), cachedUsageChunk(120, 7, 100)},
		want:       llm.Response{Message: assistant("hi"), FinishReason: "stop", Usage: llm.Usage{InputTokens: 120, OutputTokens: 7, CachedInputTokens: 100}},
		wantEvents: []llm.Event{text("hi")},
	}, {
		name:       "negative usage counts nothing",
		chunks:     []string{textChunk("hi"), finishChunk("stop"), cachedUsageChunk(-5000, -7, 900)},
		want:       llm.Response{Message: assistant("hi"), FinishReason: "stop"},
		wantEvents: []llm.Event{text("hi")},
	}, {
		name: "tool-call arguments split across many chunks",
		chunks: append(append([]string{roleChunk(), textChunk("Reading."), callChunk(call(0, "call_1", "read_file", ""))},
			splitArgs(0, args)...), finishChunk("tool_calls")),
		want: llm.Response{
			Message:      assistant("Reading.", agentproto.ToolCall{ID: "call_1", Name: "read_file", Arguments: args}),
			FinishReason: "tool_calls",
		},
		wantEvents: []llm.Event{text("Reading.")},
	}, {
		name:   "two parallel calls interleaved by index",
		chunks: interleaved,
		want: llm.Response{
			Message: assistant("",
				agentproto.ToolCall{ID: "call_a", Name: "read_file", Arguments: `{"path":"a.go"}`},
				agentproto.ToolCall{ID: "call_b", Name: "grep", Arguments: `{"pattern":"TODO"}`}),
			FinishReason: "tool_calls",
		},
	}, {
		name: "whole calls without index, then a continuation without index or id",
		chunks: []string{
			callChunk(call(-1, "call_a", "read_file", `{"path":"a.go"}`)),
			callChunk(call(-1, "call_b", "list_files", `{"path":`)),
			callChunk(call(-1, "", "", `"."}`)),
			finishChunk("tool_calls"),
		},
		want: llm.Response{
			Message: assistant("",
				agentproto.ToolCall{ID: "call_a", Name: "read_file", Arguments: `{"path":"a.go"}`},
				agentproto.ToolCall{ID: "call_b", Name: "list_files", Arguments: `{"path":"."}`}),
			FinishReason: "tool_calls",
		},
	}, {
		name: "continuation by id without index",
		chunks: []string{
			callChunk(call(-1, "call_a", "read_file", `{"pa`)),
			callChunk(call(-1, "call_b", "grep", `{}`)),
			callChunk(call(-1, "call_a", "", `th":"x"}`)),
		},
		want: llm.Response{
			Message: assistant("",
				agentproto.ToolCall{ID: "call_a", Name: "read_file", Arguments: `{"path":"x"}`},
				agentproto.ToolCall{ID: "call_b", Name: "grep", Arguments: `{}`}),
			FinishReason: "tool_calls",
		},
	}, {
		name: "every call numbered 0 with distinct ids",
		chunks: []string{
			callChunk(call(0, "call_a", "read_file", `{"path":"a"}`)),
			callChunk(call(0, "call_b", "read_file", `{"path":"b"}`)),
			finishChunk("tool_calls"),
		},
		want: llm.Response{
			Message: assistant("",
				agentproto.ToolCall{ID: "call_a", Name: "read_file", Arguments: `{"path":"a"}`},
				agentproto.ToolCall{ID: "call_b", Name: "read_file", Arguments: `{"path":"b"}`}),
			FinishReason: "tool_calls",
		},
	}, {
		name: "name pieces are concatenated",
		chunks: []string{
			callChunk(call(0, "call_1", "read_", "")),
			callChunk(call(0, "", "file", "{}")),
			finishChunk("tool_calls"),
		},
		want: llm.Response{
			Message:      assistant("", agentproto.ToolCall{ID: "call_1", Name: "read_file", Arguments: `{}`}),
			FinishReason: "tool_calls",
		},
	}, {
		name: "broken tool-call JSON passed through raw",
		chunks: []string{
			callChunk(call(0, "call_1", "write_file", `{"path": "a.go", "content": "pack`)),
			callChunk(call(0, "", "", `age main`)),
			finishChunk("tool_calls"),
		},
		want: llm.Response{
			Message:      assistant("", agentproto.ToolCall{ID: "call_1", Name: "write_file", Arguments: `{"path": "a.go", "content": "package main`}),
			FinishReason: "tool_calls",
		},
	}, {
		name:   "no finish reason: implied from the calls",
		chunks: []string{callChunk(call(0, "call_1", "list_files", `{}`))},
		want: llm.Response{
			Message:      assistant("", agentproto.ToolCall{ID: "call_1", Name: "list_files", Arguments: `{}`}),
			FinishReason: "tool_calls",
		},
	}, {
		name:       "finish reason length kept",
		chunks:     []string{textChunk("trunc"), finishChunk("length")},
		want:       llm.Response{Message: assistant("trunc"), FinishReason: "length"},
		wantEvents: []llm.Event{text("trunc")},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, sse(tt.chunks...))
			p := newTestProvider(t, f.URL, nil)
			got, events, err := complete(context.Background(), p.Provider, userRequest("hi"))
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("response\n got %+v\nwant %+v", got, tt.want)
			}
			if !reflect.DeepEqual(events, tt.wantEvents) {
				t.Errorf("events\n got %q\nwant %q", events, tt.wantEvents)
			}
			if n := len(f.requests()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
}

func TestStreamingGeneratesMissingCallIDs(t *testing.T) {
	chunks := []string{
		callChunk(call(0, "", "list_files", `{}`)),
		callChunk(call(1, "", "grep", `{}`)),
		finishChunk("tool_calls"),
	}
	f := newFake(t, sse(chunks...), sse(chunks...))
	p := newTestProvider(t, f.URL, nil)
	seen := map[string]bool{}
	for range 2 {
		resp, _, err := complete(context.Background(), p.Provider, userRequest("hi"))
		if err != nil {
			t.Fatalf("Complete: %v", err)
		}
		if len(resp.Message.ToolCalls) != 2 {
			t.Fatalf("calls = %+v, want 2", resp.Message.ToolCalls)
		}
		for _, c := range resp.Message.ToolCalls {
			if !strings.HasPrefix(c.ID, "call_") || seen[c.ID] {
				t.Errorf("generated id %q: want a fresh call_ id (seen %v)", c.ID, seen)
			}
			seen[c.ID] = true
		}
	}
}

func TestStreamingWithoutOnEvent(t *testing.T) {
	f := newFake(t, sse(textChunk("a"), textChunk("b"), finishChunk("stop")))
	p := newTestProvider(t, f.URL, nil)
	resp, err := p.Complete(context.Background(), userRequest("hi"), nil)
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if resp.Message.Content != "ab" {
		t.Errorf("content = %q, want %q", resp.Message.Content, "ab")
	}
}
