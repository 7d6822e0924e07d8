package acp_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestCancelStopsTheRemainingToolCalls: session/cancel aborts the turn's
// tool calls (the schema's CancelNotification: "Abort all tool call
// invocations in progress"; docs/acp.md). The model asked for three calls
// in one answer: a run (its permission pending when the client cancels), a
// write and another run. The prompt answers cancelled and neither later
// call runs. Before, the write landed on disk and a second
// session/request_permission went out for a turn already cancelled.
func TestCancelStopsTheRemainingToolCalls(t *testing.T) {
	t.Parallel()
	asked := make(chan struct{}, 4)
	client := &testClient{permit: func(ctx context.Context, _ sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		asked <- struct{}{}
		<-ctx.Done() // answered once agentls withdraws it
		return sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{}}
	}}
	r := newRig(t, setup{client: client, userConfig: buildByDefault, script: `
steps:
  - tool_calls:
      - {id: r1, name: run, args: {command: "touch made"}}
      - {id: w1, name: write, args: {path: after-cancel.txt, content: "written after the cancel\n"}}
      - {id: r3, name: run, args: {command: "touch made2"}}
  - text: "not reached"
`})
	sid := r.newSession().SessionId
	done := r.promptAsync(sid, "go")
	<-asked
	r.cancel(sid)
	if res := <-done; res.err != nil || res.stop != sdk.StopReasonCancelled {
		t.Fatalf("prompt: %v %v, want stopReason cancelled", res.stop, res.err)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "after-cancel.txt")); err == nil {
		t.Error("the write the model asked for ran after session/cancel: after-cancel.txt exists")
	}
	if n := len(r.wire.requests("session/request_permission")); n != 1 {
		t.Errorf("%d session/request_permission requests, want 1: one was sent after session/cancel", n)
	}
}
