package server

import (
	"context"
	"sync"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
)

// A running call's progress (a run command's newest output line, an MCP
// server's progress) goes to a client that declared
// experimental.agent.toolCallProgress as `tool_call_update` with status
// in_progress; others see it only as the turn's work-done progress
// (progress.go). Such an update is sent only while its call runs, and the
// call's end never overtakes it: the progress may come from another
// goroutine than the call's (an MCP server's notifications), so liveCalls
// keeps each running call's send slot.

// maxLiveCalls bounds liveCalls: a call started beyond it shows no
// progress (each tool call of a step runs at once only when read-only, so
// this is far above what a turn runs together).
const maxLiveCalls = 1024

// liveCalls are the running tool calls of a client that shows their
// progress, each with its send slot (a channel of capacity 1 held while
// one of the call's updates is being sent).
type liveCalls struct {
	mu    sync.Mutex
	calls map[liveCall]chan struct{}
}

// liveCall names a tool call in a session's stream.
type liveCall struct{ session, call string }

// started records that a call runs: its progress may be sent from now on.
func (l *liveCalls) started(sessionID, callID string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := liveCall{sessionID, callID}
	if l.calls == nil {
		l.calls = map[liveCall]chan struct{}{}
	}
	if _, ok := l.calls[k]; ok || len(l.calls) >= maxLiveCalls {
		return
	}
	l.calls[k] = make(chan struct{}, 1)
}

// progress runs send (one progress update of the call) when the call runs
// and none of its updates is being sent; else the line is dropped (a newer
// one follows within progressEvery, or the call ended).
func (l *liveCalls) progress(sessionID, callID string, send func()) {
	k := liveCall{sessionID, callID}
	l.mu.Lock()
	slot := l.calls[k]
	l.mu.Unlock()
	if slot == nil {
		return
	}
	select {
	case slot <- struct{}{}:
	default:
		return
	}
	defer func() { <-slot }()
	// The call may have ended (and its end been sent) between the look-up
	// and taking the slot: then its progress is stale.
	l.mu.Lock()
	running := l.calls[k] == slot
	l.mu.Unlock()
	if running {
		send()
	}
}

// ended forgets the call and waits, until ctx ends, for its progress update
// under way to be sent: the call's end, sent next, comes after it. The
// slot is kept taken, so no later progress of the call is sent.
func (l *liveCalls) ended(ctx context.Context, sessionID, callID string) {
	k := liveCall{sessionID, callID}
	l.mu.Lock()
	slot := l.calls[k]
	delete(l.calls, k)
	l.mu.Unlock()
	if slot == nil {
		return
	}
	select {
	case slot <- struct{}{}:
	case <-ctx.Done():
	}
}

// toolCallProgress reports whether the client shows running calls'
// progress (experimental.agent.toolCallProgress).
func (s *Server) toolCallProgress() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps.agentClient && s.caps.toolCallProgress
}

// trackToolCall notes, for a client that shows progress, a call's start
// and end (the end waits for the call's progress update under way), and
// sends a progress update. It reports whether update was a progress
// update (then nothing more is sent for it).
func (s *Server) trackToolCall(ctx context.Context, sessionID string, update agent.Update) bool {
	switch u := update.(type) {
	case agent.UpdateToolCallProgress:
		if s.toolCallProgress() {
			s.live.progress(sessionID, u.ToolCallID, func() {
				s.notifyClient(ctx, agentproto.Update.Name(), map[string]any{"sessionId": sessionID, "update": u})
			})
		}
		return true
	case agentproto.ToolCallStarted:
		if u.Status == "in_progress" && s.toolCallProgress() {
			s.live.started(sessionID, u.ToolCallID)
		}
	case agent.UpdateToolCallDone:
		s.live.ended(ctx, sessionID, u.ToolCallID)
	}
	return false
}
