package acp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/llm/kit"
)

// refusingModel fails every request as an endpoint that refused the key.
type refusingModel struct{ status int }

func (m refusingModel) Complete(context.Context, llm.Request, func(llm.Event)) (llm.Response, error) {
	return llm.Response{}, &kit.Error{StatusCode: m.status, Status: "401 Unauthorized", Message: "invalid api key", KeyHint: "check OPENAI_API_KEY / api_key_env"}
}

// TestFailedTurnCode: a failed turn answers session/prompt with ACP's
// auth_required (-32000) only when the credentials are the trouble — the
// endpoint refused the key, or the model is not configured — so that a
// client offers authenticate; any other failure is -32603. Clients show
// their login screen for -32000 (Zed): before, an endpoint's 502 answered
// -32000 too (found by the ACP audit helper). Every message says what to
// do.
func TestFailedTurnCode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		setup    setup
		code     int
		contains string
	}{
		{"the endpoint fails", setup{script: "steps:\n  - error: \"502 Bad Gateway from the endpoint\"\n"}, -32603, "502 Bad Gateway"},
		{"the endpoint refuses the key", setup{model: refusingModel{status: 401}}, -32000, "check OPENAI_API_KEY"},
		{"the endpoint forbids", setup{model: refusingModel{status: 403}}, -32000, "invalid api key"},
		{"no model configured", setup{}, -32000, "the model is not configured"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRig(t, tc.setup)
			sid := r.newSession().SessionId
			_, err := r.prompt(sid, "hi")
			var re *sdk.RequestError
			if !errors.As(err, &re) {
				t.Fatalf("prompt: %v, want a JSON-RPC error", err)
			}
			if re.Code != tc.code || !strings.Contains(re.Message, tc.contains) {
				t.Errorf("prompt failed with %d %q, want %d with %q", re.Code, re.Message, tc.code, tc.contains)
			}
		})
	}
}
