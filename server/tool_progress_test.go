package server

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
)

// eventLog is what the fake sends did, in order.
type eventLog struct {
	mu     sync.Mutex
	events []string
}

func (l *eventLog) add(e string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, e)
}

func (l *eventLog) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.events)
}

// TestLiveCallsOrder: a running call's progress is sent only while the call
// runs, one line at a time, and the call's end waits for the line being
// sent (so the end arrives after it) — but no longer than its context.
// In a synctest bubble: "has not returned yet" is exact, and a wait without
// bound is a deadlock the test reports.
func TestLiveCallsOrder(t *testing.T) {
	tests := []struct {
		name string
		run  func(t *testing.T, l *liveCalls, log *eventLog)
		want []string
	}{
		{"the end waits for the line being sent", func(t *testing.T, l *liveCalls, log *eventLog) {
			l.started("s", "c")
			release := make(chan struct{})
			go l.progress("s", "c", func() { <-release; log.add("line") })
			synctest.Wait()
			go func() { l.ended(context.Background(), "s", "c"); log.add("end") }()
			synctest.Wait()
			if got := log.get(); len(got) != 0 {
				t.Errorf("before the line was sent: %q", got)
			}
			close(release)
			synctest.Wait()
		}, []string{"line", "end"}},
		{"a line after the end is dropped", func(t *testing.T, l *liveCalls, log *eventLog) {
			l.started("s", "c")
			l.progress("s", "c", func() { log.add("line 1") })
			l.ended(context.Background(), "s", "c")
			log.add("end")
			l.progress("s", "c", func() { log.add("line 2") })
		}, []string{"line 1", "end"}},
		{"a call that never started shows no line", func(t *testing.T, l *liveCalls, log *eventLog) {
			l.progress("s", "c", func() { log.add("line") })
			l.ended(context.Background(), "s", "c")
			log.add("end")
		}, []string{"end"}},
		{"a line while another is being sent is dropped", func(t *testing.T, l *liveCalls, log *eventLog) {
			l.started("s", "c")
			release := make(chan struct{})
			go l.progress("s", "c", func() { <-release; log.add("line 1") })
			synctest.Wait()
			l.progress("s", "c", func() { log.add("line 2") })
			close(release)
			synctest.Wait()
			l.progress("s", "c", func() { log.add("line 3") })
		}, []string{"line 1", "line 3"}},
		{"calls are told apart by session and id", func(t *testing.T, l *liveCalls, log *eventLog) {
			l.started("s1", "c")
			l.started("s2", "c")
			l.ended(context.Background(), "s1", "c")
			l.progress("s1", "c", func() { log.add("s1 line") })
			l.progress("s2", "c", func() { log.add("s2 line") })
		}, []string{"s2 line"}},
		{"the end gives up at its context's end", func(t *testing.T, l *liveCalls, log *eventLog) {
			l.started("s", "c")
			stuck := make(chan struct{})
			defer close(stuck)
			go l.progress("s", "c", func() { <-stuck })
			synctest.Wait()
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			start := time.Now()
			l.ended(ctx, "s", "c")
			if d := time.Since(start); d != time.Second {
				t.Errorf("the end waited %s, want 1s (its context)", d)
			}
			log.add("end")
		}, []string{"end"}},
		{"beyond maxLiveCalls a call shows no line", func(t *testing.T, l *liveCalls, log *eventLog) {
			for i := range maxLiveCalls {
				l.started("s", fmt.Sprint(i))
			}
			l.started("s", "over")
			l.progress("s", "over", func() { log.add("over") })
			l.progress("s", "0", func() { log.add("0") })
		}, []string{"0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var l liveCalls
				var log eventLog
				tc.run(t, &l, &log)
				if got := log.get(); !slices.Equal(got, tc.want) {
					t.Errorf("events %q, want %q", got, tc.want)
				}
			})
		})
	}
}

// TestToolCallProgressToAStalledClient: a running call's progress to a
// client that stops reading is sent as every update is (it gives up at the
// turn's context or after notifyWriteBound), and the call's end behind a
// stuck line gives up at its context too; a client that did not declare
// experimental.agent.toolCallProgress is sent nothing (no wait at all).
func TestToolCallProgressToAStalledClient(t *testing.T) {
	line := agent.UpdateToolCallProgress{SessionUpdate: "tool_call_update", ToolCallID: "c", Status: "in_progress",
		Content: []agentproto.ToolContent{{Type: "content", Content: agentproto.TextContent{Type: "text", Text: "compiling"}}}}
	done := agent.UpdateToolCallDone{SessionUpdate: "tool_call_update", ToolCallID: "c", Status: "completed"}
	tests := []struct {
		name     string
		caps     clientCaps
		cancelIn time.Duration // the turn's context ends after this (0: never)
		send     func(ctx context.Context, s *Server)
		want     time.Duration
	}{
		{"line, client shows progress", clientCaps{agentClient: true, toolCallProgress: true}, 0,
			func(ctx context.Context, s *Server) { s.Update(ctx, "s", line) }, notifyWriteBound},
		{"line, turn cancelled", clientCaps{agentClient: true, toolCallProgress: true}, time.Second,
			func(ctx context.Context, s *Server) { s.Update(ctx, "s", line) }, time.Second},
		{"end behind a stuck line, turn cancelled", clientCaps{agentClient: true, toolCallProgress: true}, time.Second,
			func(ctx context.Context, s *Server) {
				go s.Update(ctx, "s", line) // stuck on the client until ctx ends
				synctest.Wait()
				s.Update(ctx, "s", done)
			}, time.Second},
		{"line, client without toolCallProgress", clientCaps{agentClient: true}, 0,
			func(ctx context.Context, s *Server) { s.Update(ctx, "s", line) }, 0},
		{"line, plain client", clientCaps{}, 0,
			func(ctx context.Context, s *Server) { s.Update(ctx, "s", line) }, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := pipedServer(t, false)
				s.caps = tc.caps
				if tc.caps.toolCallProgress {
					s.live.started("s", "c") // as Update records the call's start, without its send
				}
				ctx := context.Background()
				if tc.cancelIn > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tc.cancelIn)
					defer cancel()
				}
				start := time.Now()
				tc.send(ctx, s)
				if d := time.Since(start); d != tc.want {
					t.Errorf("gave up after %s, want %s", d, tc.want)
				}
			})
		})
	}
}
