package acp

import (
	"context"
	"sync"
	"sync/atomic"
)

// runningPrompts are the running session/prompt calls, the newest of each
// session.
type runningPrompts struct {
	mu    sync.Mutex
	byKey map[string]*runningPrompt
}

// runningPrompt is one session/prompt call: the SDK's context for it and
// the cancel of its turn's context.
type runningPrompt struct {
	sdkCtx context.Context
	cancel context.CancelCauseFunc
	// decided: the SDK's cancel was judged once (passCancel), when it came;
	// a later look would see the approval already answered by the new
	// prompt and cancel the turn that goes on.
	decided sync.Once
	// withdrawn: the client withdrew this prompt ($/cancel_request,
	// prompt_withdrawn.go): its cancel is passed on even while the turn
	// waits for a plan approval.
	withdrawn atomic.Bool
}

// turnContext is the context of a session/prompt's turn. The ACP Go SDK
// cancels a session's running prompt when another session/prompt for it
// arrives: that cancel reaches the running turn before the new prompt
// starts (the new prompt then waits for it to wind down), except while the
// turn waits for a plan approval. Then the new prompt is the user's answer
// to it (the agent reads its text as the reason to keep planning, and the
// waiting turn goes on with the model's revision). session/cancel always
// cancels the turn (Agent.Cancel), and so does the connection's end. stop
// releases it.
func (a *Agent) turnContext(ctx context.Context, h *hosted, sessionID string) (context.Context, func()) {
	tctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	p := &runningPrompt{sdkCtx: ctx, cancel: cancel}
	a.prompts.mu.Lock()
	if a.prompts.byKey == nil {
		a.prompts.byKey = map[string]*runningPrompt{}
	}
	prev := a.prompts.byKey[sessionID]
	a.prompts.byKey[sessionID] = p
	a.prompts.mu.Unlock()
	if prev != nil {
		// Superseded by this prompt: cancelled now, before this one starts.
		// Not from the SDK's cancel alone: the SDK forgets a session's
		// running prompt when an older one's call returns, so a third
		// prompt would find the second's context still live.
		a.passCancel(h, sessionID, prev, true)
	}
	after := context.AfterFunc(ctx, func() { a.passCancel(h, sessionID, p, false) })
	return tctx, func() {
		after()
		cancel(context.Canceled)
		a.prompts.mu.Lock()
		if a.prompts.byKey[sessionID] == p {
			delete(a.prompts.byKey, sessionID)
		}
		a.prompts.mu.Unlock()
	}
}

// passCancel passes the SDK's cancel of p on to its turn (or, superseded,
// cancels it for a newer prompt of its session), unless the turn waits
// for a plan approval (and the connection lives). The first call after the
// cancel decides: the new prompt's, before it starts, or the AfterFunc's,
// whichever comes first.
func (a *Agent) passCancel(h *hosted, sessionID string, p *runningPrompt, superseded bool) {
	if !superseded && p.sdkCtx.Err() == nil {
		return
	}
	p.decided.Do(func() {
		if _, awaiting := h.mgr.ApprovalGrants(sessionID); awaiting && !a.connClosed() && !p.withdrawn.Load() {
			return
		}
		cause := context.Cause(p.sdkCtx)
		if cause == nil {
			cause = context.Canceled
		}
		p.cancel(cause)
	})
}

// connClosed reports whether the client connection has ended.
func (a *Agent) connClosed() bool {
	a.mu.Lock()
	closed := a.closed
	a.mu.Unlock()
	if closed || a.conn == nil {
		return true
	}
	select {
	case <-a.conn.Done():
		return true
	default:
		return false
	}
}
