package acp

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/agent"
)

// humanAnswerFloor is the quickest a person can read a permission request
// and decide: a client that answers sooner decided on its own (avante.nvim's
// default auto_approve_tool_permissions answers in about 40 ms).
const humanAnswerFloor = 300 * time.Millisecond

// timedPermission sends session/request_permission (through the SDK) and
// measures the answer: a decision that came within humanAnswerFloor is
// marked "answered by the client in N ms" in the tool call's result and
// in the log, so the user sees that no person decided.
func (e *editor) timedPermission(ctx context.Context, req sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	asked := time.Now()
	rctx, stop := outliveCancel(ctx, agent.CancelAnswerGrace)
	defer stop()
	res, err := e.askPermission(rctx, req) // permission_answer.go
	took := time.Since(asked)
	if err != nil || res.Outcome.Selected == nil || took >= humanAnswerFloor {
		return res, err
	}
	note := fastAnswerNote(took, string(res.Outcome.Selected.OptionId))
	slog.Warn("acp: "+note, "session", req.SessionId, "toolCall", req.ToolCall.ToolCallId)
	e.a.calls.add(string(req.SessionId), string(req.ToolCall.ToolCallId), textContent(note))
	return res, nil
}

// fastAnswerNote says that the client, not a person, chose optionID.
func fastAnswerNote(took time.Duration, optionID string) string {
	return fmt.Sprintf("answered by the client in %d ms (%s): faster than a person decides; check the client's auto-approve setting",
		took.Milliseconds(), optionID)
}

// outliveCancel is ctx, except that its cancel reaches the returned context
// only after grace: an answer the client sent just before cancelling the
// turn (agent-shell answers Keep Planning with reject_once, then
// session/cancel) is read instead of being lost to the cancel. stop
// releases it.
func outliveCancel(ctx context.Context, grace time.Duration) (context.Context, func()) {
	rctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	after := context.AfterFunc(ctx, func() {
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-t.C:
			cancel(context.Cause(ctx))
		case <-rctx.Done():
		}
	})
	return rctx, func() {
		after()
		cancel(context.Canceled)
	}
}
