package mcpclient

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentls/agentls/config"
)

// TestExitErrorEndsWithLastStderrLine: a server that writes its last
// stderr line and exits at once has that line in the call's error and in
// its status, every time: the waiter describes the exit only once the
// server's stderr reached EOF. The stderr reader is held (stderrHold)
// until the waiter drains it or the call returned, which makes the race of
// cmd/agentls TestMCPHostileServer's "die" under load deterministic: with
// the drain off (stderrDrainGrace 0, the old code) every exit is described
// without the line.
func TestExitErrorEndsWithLastStderrLine(t *testing.T) {
	tests := []struct {
		name     string
		grace    time.Duration
		wantLine bool
	}{
		{"drained", time.Second, true},
		{"not drained (the old race)", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var release atomic.Pointer[chan struct{}]
			oldBase, oldMax, oldGrace, oldHold := backoffBase, maxCrashes, stderrDrainGrace, stderrHold
			backoffBase, maxCrashes, stderrDrainGrace = 0, 1<<30, tc.grace // restart at once, never give up
			stderrHold = func(draining <-chan struct{}) {
				select {
				case <-draining:
				case <-*release.Load():
				}
			}
			// Registered before the pool's Close, so it runs after it.
			t.Cleanup(func() { backoffBase, maxCrashes, stderrDrainGrace, stderrHold = oldBase, oldMax, oldGrace, oldHold })
			p, _ := hostilePool(t, config.Default())
			ctx := context.Background()
			const iterations = 5
			for i := range iterations {
				ch := make(chan struct{})
				release.Store(&ch)
				if i == 0 {
					p.SessionTools(ctx, "s")
				}
				s := p.servers("s")[0]
				want := fmt.Sprintf("dying on purpose #%d", i)
				_, err := s.Call(ctx, "die", map[string]any{"mark": fmt.Sprintf("#%d", i)}, time.Minute, 1000)
				close(ch) // the call returned: the held reader may go on
				if err == nil {
					t.Fatalf("iteration %d: the call of die did not fail", i)
				}
				if got := strings.Contains(err.Error(), want); got != tc.wantLine {
					t.Errorf("iteration %d: the error has the last stderr line: %v, want %v; err = %v", i, got, tc.wantLine, err)
				}
			}
		})
	}
}

// TestStartFailureEndsWithLastStderrLine: a server that writes why and
// exits before the handshake fails with that line in its status and the
// exit in its reason, every time: the start attempt waits for its waiter
// (which drains the stderr) before it describes the failure. The reader is
// held until the waiter drains it or the status was read; without the
// wait (the CI failure of TestDisabledAndCwdInThePool) the status is read
// first and its stderr is empty.
func TestStartFailureEndsWithLastStderrLine(t *testing.T) {
	var release atomic.Pointer[chan struct{}]
	oldHold := stderrHold
	stderrHold = func(draining <-chan struct{}) {
		select {
		case <-draining:
		case <-*release.Load():
		}
	}
	t.Cleanup(func() { stderrHold = oldHold })
	root := t.TempDir()
	for i := range 5 {
		ch := make(chan struct{})
		release.Store(&ch)
		cfg := config.Default()
		cfg.MCP.Servers = map[string]config.MCPServer{
			"why": {Command: "sh", Args: []string{"-c", fmt.Sprintf("echo no config file %d >&2; exit 3", i)}},
		}
		p := NewPool(root, []string{root}, nil)
		p.Configure(cfg, SpecsFromConfig(cfg))
		p.SessionTools(context.Background(), "s")
		st := p.Status()
		close(ch)
		p.Close()
		if len(st) != 1 {
			t.Fatalf("statuses: %+v", st)
		}
		want := fmt.Sprintf("no config file %d", i)
		if s := st[0]; State(s.State) != StateFailed || !strings.Contains(s.StderrTail, want) || !strings.Contains(s.Reason, "exit status 3") {
			t.Errorf("attempt %d: %+v, want failed with %q in its stderr and the exit in its reason", i, s, want)
		}
	}
}
