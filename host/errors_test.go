package host

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/agentls/agentls/agent"
)

// TestClassify: each agent error has its kind and a message a person can
// act on, also when it is wrapped.
func TestClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		err      error
		wantKind ErrorKind
		wantMsg  string
	}{
		{"invalid params", &agent.InvalidParamsError{Msg: `mode must be "plan" or "build"`}, KindInvalidParams, `mode must be "plan" or "build"`},
		{"unknown session", &agent.InvalidParamsError{Msg: `unknown session "x"`, Err: agent.ErrUnknownSession}, KindUnknownSession, `unknown session "x"`},
		{"wrapped invalid params", fmt.Errorf("prompt: %w", &agent.InvalidParamsError{Msg: "text is empty"}), KindInvalidParams, "text is empty"},
		{"busy", agent.ErrBusy, KindSessionBusy, "session busy"},
		{"wrapped busy", fmt.Errorf("compact: %w", agent.ErrBusy), KindSessionBusy, "session busy"},
		{"cancelled", context.Canceled, KindCancelled, "request cancelled"},
		{"internal", errors.New("write .agentls/chats/x.chat: disk full"), KindInternal, "write .agentls/chats/x.chat: disk full"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			kind, msg := Classify(tc.err)
			if kind != tc.wantKind || msg != tc.wantMsg {
				t.Fatalf("Classify = %v %q, want %v %q", kind, msg, tc.wantKind, tc.wantMsg)
			}
		})
	}
}

// TestUnknownSessionFromTheAgent: the manager's unknown-session error is
// classified as such (the faces may give it a code of its own).
func TestUnknownSessionFromTheAgent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	h, err := New(e.options(&models{}))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	_, err = h.Manager().SetMode(context.Background(), "nope", "build")
	if kind, msg := Classify(err); kind != KindUnknownSession || msg != `unknown session "nope"` {
		t.Fatalf("Classify(%v) = %v %q", err, kind, msg)
	}
}
