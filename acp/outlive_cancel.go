package acp

import (
	"context"
	"time"
)

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
