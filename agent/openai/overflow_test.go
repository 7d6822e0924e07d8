package openai

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/internal/fakeopenai"
)

// TestContextExceededIsRecognised: the overflow errors of OpenAI, vLLM and
// llama.cpp, from a real HTTP exchange, match llm.ErrContextExceeded and are
// not retried; other 400s do not match.
func TestContextExceededIsRecognised(t *testing.T) {
	long := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: strings.Repeat("x", 500)}}}
	for _, style := range fakeopenai.Overflows {
		t.Run(string(style), func(t *testing.T) {
			fake := fakeopenai.New(fakeopenai.Options{MaxBytes: 300, Overflow: style})
			defer fake.Close()
			p, err := New(Config{BaseURL: fake.URL, Model: "m"})
			if err != nil {
				t.Fatal(err)
			}
			_, err = p.Complete(context.Background(), long, nil)
			if !errors.Is(err, llm.ErrContextExceeded) {
				t.Fatalf("err = %v, want ErrContextExceeded", err)
			}
			if n := len(fake.Requests()); n != 1 {
				t.Fatalf("%d requests: an overflow must not be retried", n)
			}
			// The window is stated in every wording but older llama.cpp's.
			want := llm.ContextCounts{Window: fakeopenai.Tokens(300), Prompt: fakeopenai.Tokens(len(fake.Requests()[0].Body))}
			if style == fakeopenai.OverflowLlamaCppOld {
				want = llm.ContextCounts{}
			}
			if got := llm.CountsOf(err); got != want {
				t.Fatalf("the counts the endpoint stated = %+v, want %+v", got, want)
			}
		})
	}
	fake := fakeopenai.New(fakeopenai.Options{Reply: func(fakeopenai.Request) fakeopenai.Reply {
		return fakeopenai.Reply{Status: 400, ErrorBody: `{"error":{"message":"Invalid value for temperature","type":"invalid_request_error","code":"invalid_value"}}`}
	}})
	defer fake.Close()
	p, err := New(Config{BaseURL: fake.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Complete(context.Background(), long, nil); err == nil || errors.Is(err, llm.ErrContextExceeded) {
		t.Fatalf("an ordinary 400 = %v", err)
	}
}
