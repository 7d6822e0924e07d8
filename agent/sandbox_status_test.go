package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/config"
)

// TestConfirmRunWithoutSandbox: with sandbox.mode off (as where no layer is
// usable) no command runs unasked: run.allow and "Always allow" do not
// apply, and the question says why.
func TestConfirmRunWithoutSandbox(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		mode string
		asks int
	}{{"off", 3}, {"auto", 1}} {
		t.Run(c.mode, func(t *testing.T) {
			if c.mode == "auto" {
				if m, _ := newTestManager(t, "name: x\nsteps:\n  - text: hi\n", &memEditor{}, nil); !m.SandboxStatus().Confines() {
					t.Skipf("no sandbox layer here: %s", m.SandboxStatus().Summary)
				}
			}
			asks := 0
			ed := &memEditor{ask: func(_ context.Context, req AskRequest) (AskReply, error) {
				asks++
				if q := req.Set.Questions[0].Question; c.mode == "off" && !strings.Contains(q, "No sandbox: sandbox off") {
					t.Errorf("the question does not say why it is asked: %q", q)
				}
				return AskReply{Answers: map[string]any{"decision": "allow_always"}}, nil
			}}
			m, _ := newTestManager(t, "name: x\nsteps:\n  - text: hi\n", ed, func(cfg *config.Config) {
				cfg.Run.Allow = []string{"go test *"}
				cfg.Sandbox.Mode = c.mode
			})
			e := &env{s: newTestSession(t, m, "build")}
			for _, cmd := range []string{"go test ./...", "make", "make"} {
				if p, err := e.ConfirmRun(context.Background(), tools.RunRequest{Command: cmd, Dir: m.ws.Root()}); !p.Run || err != nil {
					t.Fatalf("%s: %v %v", cmd, p.Run, err)
				}
			}
			want := c.asks
			if asks != want {
				t.Errorf("mode %s: %d asks, want %d", c.mode, asks, want)
			}
		})
	}
}
