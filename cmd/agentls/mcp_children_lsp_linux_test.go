package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/internal/proctest"
)

// TestMCPServerChildrenGoAfterLSPShutdown: on the LSP face (the real
// `agentls` an editor starts), an MCP server's whole process group — here a
// child of the server that ignores stdin — is gone once the editor sent
// shutdown and exit (issue 18: "all children gone after shutdown, exit";
// stdin EOF and kill -9 are TestMCPServerChildrenGoWithAgentls's), and
// agentls exits 0.
func TestMCPServerChildrenGoAfterLSPShutdown(t *testing.T) {
	t.Parallel()
	bin := buildHostile(t)
	dir := t.TempDir()
	logDir := t.TempDir() // beside the workspace: the server may write here (sandbox.allow_write)
	callLog := filepath.Join(logDir, "calls.log")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// Landlock alone: this proves the watchdog and the shutdown path (under
	// bwrap the PID namespace ends the children by itself).
	ed, proc, sid := lspScriptedWith(ctx, t, dir, `
steps:
  - tool_calls:
      - {id: e, name: mcp__evil__echo, args: {path: "x", content: "hi"}}
  - text: "Done."
`, lspclient.Handlers{}, "plan", map[string]any{
		"sandbox": map[string]any{"mode": "landlock", "allow_write": []any{logDir}},
		"mcp": map[string]any{
			"servers":   map[string]any{"evil": map[string]any{"command": bin, "network": false, "env": map[string]any{"HOSTILE_LOG": callLog, "HOSTILE_CHILD": "1"}}},
			"read_only": []any{"evil/echo"},
		},
	})
	defer ed.Close()
	var res struct {
		StopReason string `json:"stopReason"`
	}
	if err := ed.Call(ctx, "agent/prompt", map[string]any{"sessionId": sid, "text": "go"}, &res); err != nil || res.StopReason != "end_turn" {
		t.Fatalf("prompt: %+v %v", res, err)
	}
	calls, _ := os.ReadFile(callLog)
	pid := proctest.LoggedChild(calls)
	if pid == 0 || !strings.Contains(string(calls), "echo") {
		t.Fatalf("no echo call or no child pid in %q", calls)
	}
	child, err := proctest.Watch(pid)
	if err != nil {
		t.Fatalf("watch the server's child: %v", err)
	}
	defer child.Close()
	if err := ed.Shutdown(ctx); err != nil {
		t.Errorf("shutdown and exit: %v (agentls %d)", err, proc.Pid)
	}
	if gone, err := child.Exited(20 * time.Second); err != nil || !gone {
		t.Fatalf("the server's child %d is still running 20 s after shutdown and exit: %v", pid, err)
	}
}
