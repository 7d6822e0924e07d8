//go:build linux && (amd64 || arm64)

package server_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/sandbox"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestRunSandboxRefusesWriteOutside: through the real server, a command
// the user approved still runs in the sandbox: its write outside the
// workspace fails, nothing is written, and the run result says the
// sandbox refused it (so the model and the user learn why). With
// sandbox.mode off the same command writes.
func TestRunSandboxRefusesWriteOutside(t *testing.T) {
	t.Parallel()
	if st := sandbox.Detect().Status(sandbox.ModeAuto); !st.Confines() {
		t.Skipf("no sandbox layer here: %s", st.Summary)
	}
	for _, c := range []struct {
		mode    string
		written bool
	}{{"auto", false}, {"off", true}} {
		t.Run(c.mode, func(t *testing.T) {
			target := filepath.Join(t.TempDir(), "escaped")
			h := lsptest.Start(t, lsptest.Setup{
				Handlers: lspclient.Handlers{AskUser: decide("run")},
				InitOpts: map[string]any{"sandbox": map[string]any{"mode": c.mode}},
				Script: fmt.Sprintf(`
name: sandbox_run
steps:
  - tool_calls:
      - {id: r, name: run, args: {command: %q}}
  - text: done
`, "echo x > "+target),
			})
			s := h.NewSession("build")
			out := <-h.PromptRPC(map[string]any{"sessionId": s.SessionID, "text": "write"})
			if out.Err != nil {
				t.Fatal(out.Err)
			}
			status, res := h.ToolOutput("r")
			_, err := os.Stat(target)
			if written := err == nil; written != c.written {
				t.Fatalf("mode %s: written=%v (run %s %v)", c.mode, written, status, res)
			}
			text := fmt.Sprint(res)
			if c.written {
				if !strings.Contains(text, "sandbox off") || strings.Contains(text, "may have refused") {
					t.Errorf("mode off result: %s", text)
				}
				return
			}
			for _, want := range []string{"the sandbox may have refused this", "writes only in the workspace", "exit_code:2"} {
				if !strings.Contains(text, want) {
					t.Errorf("result lacks %q: %s", want, text)
				}
			}
		})
	}
}
