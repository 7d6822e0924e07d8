package server

import (
	"context"
	"errors"
	"testing"
)

// TestTrustOutcome: a trust question's answer decides what the review
// does next: a failed question stops the review (even when the context
// ended), a refusal or dismissal skips the file, only "Trust" trusts it.
func TestTrustOutcome(t *testing.T) {
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	failed := errors.New("editor gone")
	for _, tc := range []struct {
		name string
		ctx  context.Context
		yes  bool
		err  error
		want trustAnswer
	}{
		{"trust", context.Background(), true, nil, trustGiven},
		{"don't trust", context.Background(), false, nil, trustDeclined},
		{"failed question", context.Background(), false, failed, trustFailed},
		{"failed with a yes", context.Background(), true, failed, trustFailed},
		{"context ended", ended, false, context.Canceled, trustFailed},
	} {
		if got := trustOutcome(tc.ctx, "workspace configuration", "/w/.agentls.yaml", tc.yes, tc.err); got != tc.want {
			t.Errorf("%s: trustOutcome = %d, want %d", tc.name, got, tc.want)
		}
	}
}
