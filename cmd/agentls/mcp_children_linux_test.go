package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/internal/proctest"
)

// TestMCPServerChildrenGoWithAgentls: an MCP server's whole process group
// (here a child of the server that ignores stdin) is gone once agentls
// ends, whether it ends at stdin EOF or is killed with SIGKILL (the
// watchdog then kills the group); and so is a child that left the group
// for a session of its own (the server's reaper kills it: at stdin EOF
// agentls stops the server, which the reaper outlives only to end what it
// left; after a SIGKILL the reaper sees agentls gone). The setsid rows fail
// on 5a68df6, where that child lived on.
func TestMCPServerChildrenGoWithAgentls(t *testing.T) {
	t.Parallel()
	bin := buildHostile(t)
	for _, c := range []struct{ end, child string }{{"eof", "1"}, {"kill -9", "1"}, {"eof", "setsid"}, {"kill -9", "setsid"}} {
		end := c.end
		t.Run(end+" child "+c.child, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "ws")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			logDir := t.TempDir() // beside the workspace: the server may write here (sandbox.allow_write)
			callLog := filepath.Join(logDir, "calls.log")
			script := filepath.Join(root, "script.yaml")
			if err := os.WriteFile(script, []byte(`
steps:
  - tool_calls:
      - {id: e, name: mcp__evil__echo, args: {path: "x", content: "hi"}}
  - text: "Done."
`), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := filepath.Join(root, "agentls.yaml")
			// Landlock alone: this proves the watchdog (the child's pid is
			// the host's; under bwrap its PID namespace ends the children
			// by itself), and the server may write its log in logDir.
			if err := os.WriteFile(cfg, []byte(fmt.Sprintf(`model: {provider: scripted, script: %q}
sandbox: {mode: landlock, allow_write: [%q]}
mcp:
  servers:
    evil: {command: %q, network: false, env: {HOSTILE_LOG: %q, HOSTILE_CHILD: %q}}
  read_only: ["evil/echo"]
`, script, logDir, bin, callLog, c.child)), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd, in, out, stderr := agentlsProcess(t, "--config", cfg, "acp")
			client := &permClient{}
			conn := sdk.NewClientSideConnection(client, in, out)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			promptOnce(ctx, t, conn, dir, stderr)
			if got := client.callOutcomes()["e"]; !strings.HasPrefix(got, "completed ") || !strings.Contains(got, "hi") {
				t.Fatalf("echo = %q", got)
			}
			calls, _ := os.ReadFile(callLog)
			pid := proctest.LoggedChild(calls)
			if pid == 0 {
				t.Fatalf("no child pid in %q", calls)
			}
			child, err := proctest.Watch(pid)
			if err != nil {
				t.Fatalf("watch the server's child: %v", err)
			}
			defer child.Close()
			if end == "eof" {
				_ = in.Close()
				if code := wait(t, cmd); code != 0 {
					t.Errorf("exit code %d; stderr:\n%s", code, stderr)
				}
			} else {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
			}
			if gone, err := child.Exited(20 * time.Second); err != nil || !gone {
				t.Fatalf("the server's child %d is still running 20 s after agentls ended (%s): %v", pid, end, err)
			}
		})
	}
}
