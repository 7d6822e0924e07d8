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
