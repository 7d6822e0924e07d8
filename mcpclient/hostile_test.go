package mcpclient

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/config"
)

// TestHostileAnswers: a server that answers with 50 MB has its result cut
// to the cap; one that answers with bad JSON ends the call at once with the
// reason (no wait for the timeout), is stopped, and starts again at its
// next use; one that floods notifications (log, progress, tools/list_changed,
// resources/updated) still gets its answer through, and the flood costs a
// bounded number of tool listings.
func TestHostileAnswers(t *testing.T) {
	oldBase := backoffBase
	backoffBase = 0 // restart at once after the bad JSON
	t.Cleanup(func() { backoffBase = oldBase })
	tests := []struct {
		name string
		tool string
		args map[string]any
		// check looks at the call's outcome and the server after it.
		check func(t *testing.T, res CallResult, err error, s *Server)
	}{
		{"50 MB answer is capped", "huge", map[string]any{"bytes": 50 << 20}, func(t *testing.T, res CallResult, err error, s *Server) {
			if err != nil || !res.Truncated || res.Bytes != 50<<20 || len(res.Text) > 30200 || !strings.Contains(res.Text, "capped at run.max_output_bytes") {
				t.Errorf("huge: err %v, truncated %v, bytes %d, len %d", err, res.Truncated, res.Bytes, len(res.Text))
			}
		}},
		{"bad JSON ends the call and restarts the server", "bad_json", map[string]any{}, func(t *testing.T, res CallResult, err error, s *Server) {
			// Mostly the broken protocol is what is said. Under load the server
			// can die first (SIGPIPE, once the client closed the connection its
			// bad JSON broke), and then its exit is (an open race in how the
			// crash is worded; the call fails and the restart works either way).
			broke := err != nil && strings.Contains(err.Error(), "its connection broke") && strings.Contains(err.Error(), "invalid character")
			exited := err != nil && strings.Contains(err.Error(), "exited during the call")
			if !broke && !exited {
				t.Errorf("bad_json: err = %v", err)
			}
			if st := s.Status(); State(st.State) != StateFailed || !strings.Contains(st.Reason, "connection broke") && !strings.Contains(st.Reason, "exited") {
				t.Errorf("status after bad JSON = %+v", st)
			}
			res, err = s.Call(context.Background(), "echo", map[string]any{"path": "x", "content": "back"}, 10*time.Second, 1000)
			if err != nil || res.Text != "back" {
				t.Errorf("after the restart: %+v %v", res, err)
			}
		}},
		{"a flood of notifications", "flood", map[string]any{"count": 5000}, func(t *testing.T, res CallResult, err error, s *Server) {
			if err != nil || res.Text != "flooded 5000" || State(s.Status().State) != StateRunning {
				t.Errorf("flood: %+v %v %+v", res, err, s.Status())
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, logf := hostilePool(t, config.Default())
			ctx := context.Background()
			p.SessionTools(ctx, "s")
			s := p.servers("s")[0]
			// Each case ends by its own rule, never by the call's timeout: a
			// generous one (the race detector and a loaded machine make a 50 MB
			// answer slow), of which taking half already fails.
			timeout := 5 * time.Minute
			start := time.Now()
			res, err := s.Call(ctx, tc.tool, tc.args, timeout, 30000)
			if time.Since(start) >= timeout/2 {
				t.Errorf("%s took %s", tc.tool, time.Since(start))
			}
			tc.check(t, res, err, s)
			if log, _ := os.ReadFile(logf); !strings.Contains(string(log), tc.tool) {
				t.Errorf("the call never reached the server: %q", log)
			}
		})
	}
}

// TestElicitorScope: a server's elicitation goes to its newest running call
// that can ask; when the running calls that can ask belong to two sessions
// (a shared server), no one is asked.
func TestElicitorScope(t *testing.T) {
	ask := func(context.Context, tools.MCPElicitation) (tools.MCPElicitReply, error) {
		return tools.MCPElicitReply{}, nil
	}
	tests := []struct {
		name   string
		hooks  []*CallHooks
		wantIx int // index of the call asked, -1 for none
	}{
		{"none running", nil, -1},
		{"one call", []*CallHooks{{Elicit: ask, Scope: "a"}}, 0},
		{"newest of one session", []*CallHooks{{Elicit: ask, Scope: "a"}, {Elicit: ask, Scope: "a"}}, 1},
		{"a call that cannot ask is passed over", []*CallHooks{{Elicit: ask, Scope: "a"}, {Scope: "b"}}, 0},
		{"two sessions: no one", []*CallHooks{{Elicit: ask, Scope: "a"}, {Elicit: ask, Scope: "b"}}, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var c calls
			var added []*inflight
			for _, h := range tc.hooks {
				token, _ := c.add(context.Background(), h)
				added = append(added, c.byToken(token))
			}
			got := c.newestElicitor()
			switch {
			case tc.wantIx < 0 && got != nil:
				t.Errorf("asked %+v, want no one", got.hooks)
			case tc.wantIx >= 0 && got != added[tc.wantIx]:
				t.Errorf("asked the wrong call")
			}
		})
	}
}
