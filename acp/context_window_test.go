package acp_test

import (
	"errors"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/internal/fakeopenai"
)

// TestTooSmallWindowIsNamed: over ACP too, a model server whose context
// cannot hold the system prompt and the tool definitions ends the turn with
// an error that names the context the server stated, or showed by cutting
// requests without an error (Ollama), and what to change (docs/sessions.md).
func TestTooSmallWindowIsNamed(t *testing.T) {
	tests := []struct {
		name     string
		overflow fakeopenai.Overflow
		tokens   int      // the server's context
		want     []string // in the error
	}{
		{"stated in the refusal", fakeopenai.OverflowLlamaCpp, 1000,
			[]string{"the endpoint says the model's context window is 1000 tokens", "model.context_window to 1000"}},
		{"shown by cuts", fakeopenai.OverflowOllamaCut, 4096,
			[]string{"cut longer requests to fit a 4096-token window without an error", "OLLAMA_CONTEXT_LENGTH"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakeopenai.New(fakeopenai.Options{MaxBytes: tt.tokens * 4, Overflow: tt.overflow})
			defer srv.Close()
			r := newRig(t, setup{realProvider: true,
				userConfig: "model:\n  base_url: " + srv.URL + "\n  name: m\n  api_key_env: \"\"\n  context_window: 32768\n"})
			sid := r.newSession().SessionId
			long := "please consider " + strings.Repeat("these words here ", 500)
			var err error
			for i := 0; i < 4 && err == nil; i++ {
				var stop sdk.StopReason
				if stop, err = r.prompt(sid, long); err == nil && stop != sdk.StopReasonEndTurn {
					t.Fatalf("prompt %d stopped %s", i+1, stop)
				}
			}
			var re *sdk.RequestError
			if !errors.As(err, &re) {
				t.Fatalf("the prompts ended %v, want the turn's error", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(re.Message, w) {
					t.Fatalf("error %q does not say %q", re.Message, w)
				}
			}
		})
	}
}

// TestReportedWindowOverACP: a model server that reports its context
// window (llama.cpp's /props here) sets the session's window without any
// configuration: usage_update's size is the server's, and a window nothing
// fits in ends the turn, before any request, with an error naming the
// reported window and where it was read.
func TestReportedWindowOverACP(t *testing.T) {
	tests := []struct {
		name   string
		tokens int
		want   []string // in the error; none: the turn ends well
	}{
		{"a window that holds the session", 12_000, nil},
		{"a window nothing fits in", 1100, []string{"the endpoint reports the model's context window as 1100 tokens (llama.cpp /props)", "larger context"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakeopenai.New(fakeopenai.Options{MaxBytes: tt.tokens * 4, Overflow: fakeopenai.OverflowLlamaCppOld,
				Window: fakeopenai.WindowReport{Kind: fakeopenai.KindLlamaCpp, Tokens: tt.tokens, Model: "m"}})
			defer srv.Close()
			r := newRig(t, setup{realProvider: true, userConfig: "model:\n  base_url: " + srv.URL + "\n  name: m\n  api_key_env: \"\"\n"})
			sid := r.newSession().SessionId
			stop, err := r.prompt(sid, "hello")
			if tt.want == nil {
				if err != nil || stop != sdk.StopReasonEndTurn {
					t.Fatalf("prompt = %s, %v", stop, err)
				}
				r.client.mu.Lock()
				defer r.client.mu.Unlock()
				var sizes []int
				for _, u := range r.client.updates {
					if u.Update.UsageUpdate != nil {
						sizes = append(sizes, u.Update.UsageUpdate.Size)
					}
				}
				if len(sizes) == 0 || sizes[len(sizes)-1] != tt.tokens {
					t.Fatalf("usage_update sizes %v, want the server's %d", sizes, tt.tokens)
				}
				return
			}
			var re *sdk.RequestError
			if !errors.As(err, &re) {
				t.Fatalf("the prompt ended %s, %v; want the turn's error", stop, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(re.Message, w) {
					t.Fatalf("error %q does not say %q", re.Message, w)
				}
			}
			if n := len(srv.Requests()); n != 0 {
				t.Fatalf("%d requests sent to a window nothing fits", n)
			}
		})
	}
}
