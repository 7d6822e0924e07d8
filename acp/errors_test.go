package acp

import (
	"context"
	"errors"
	"fmt"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/agent"
)

// TestRequestErrorsFollowClassify: the ACP face maps agent errors by
// host.Classify's kinds, like the LSP face (a cancelled request is -32800,
// not an internal error; a wrapped one keeps its kind).
func TestRequestErrorsFollowClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		code int
		msg  string
	}{
		{"invalid params", &agent.InvalidParamsError{Msg: "text is empty"}, -32602, "text is empty"},
		{"unknown session", fmt.Errorf("load: %w", &agent.InvalidParamsError{Msg: `unknown session "x"`, Err: agent.ErrUnknownSession}), -32602, `unknown session "x"`},
		{"busy", fmt.Errorf("prompt: %w", agent.ErrBusy), -32603, "session busy: its turn is still running; wait for it or send session/cancel"},
		{"cancelled", fmt.Errorf("new session: %w", context.Canceled), -32800, "request cancelled"},
		{"internal", errors.New("write x.chat: disk full "), -32603, "write x.chat: disk full"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var re *sdk.RequestError
			if err := toRequestError(tc.err); !errors.As(err, &re) || re.Code != tc.code || re.Message != tc.msg {
				t.Fatalf("toRequestError = %#v, want %d %q", err, tc.code, tc.msg)
			}
		})
	}
}
