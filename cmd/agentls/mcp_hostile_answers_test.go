package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// TestMCPHostileAnswers drives the real `agentls acp` with the hostile
// server's worst answers, all user-listed read-only so that they run in
// plan mode: a 50 MB result reaches the model cut to run.max_output_bytes;
// a flood of notifications leaves the call's answer intact; bad JSON
// fails its call at once (not after mcp.call_timeout_secs); and the turn
// goes on to its end.
func TestMCPHostileAnswers(t *testing.T) {
	bin := buildHostile(t)
	root := t.TempDir()
	dir := filepath.Join(root, "ws")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(root, "script.yaml")
	if err := os.WriteFile(script, []byte(`
steps:
  - tool_calls:
      - {id: h, name: mcp__evil__huge, args: {bytes: 52428800}}
  - tool_calls:
      - {id: f, name: mcp__evil__flood, args: {count: 2000}}
  - tool_calls:
      - {id: b, name: mcp__evil__bad_json, args: {}}
  - text: "Still here."
`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(root, "agentls.yaml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(`model: {provider: scripted, script: %q}
run: {max_output_bytes: 20000}
mcp:
  servers:
    evil: {command: %q, network: false}
  read_only: ["evil/huge", "evil/bad_json", "evil/flood"]
  call_timeout_secs: 100
`, script, bin)), 0o644); err != nil {
		t.Fatal(err)
	}
	client := &permClient{}
	cmd, in, conn, ctx, sess, stderr := startACPSession(t, cfg, dir, client, 3*time.Minute)
	start := time.Now()
	res, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("go")}})
	if err != nil || res.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v; stderr:\n%s", res, err, stderr)
	}
	if took := time.Since(start); took > 90*time.Second {
		t.Errorf("the turn took %s: bad JSON waited for the call timeout", took)
	}
	got := client.callOutcomes()
	if !strings.HasPrefix(got["h"], "completed ") || !strings.Contains(got["h"], "cut: ") || len(got["h"]) > 25000 {
		t.Errorf("huge: %d bytes, want under 25000 with a cut note: %.200q", len(got["h"]), got["h"])
	}
	if !strings.HasPrefix(got["b"], "failed ") || !strings.Contains(got["b"], "connection broke") {
		t.Errorf("bad_json = %q, want the broken connection", got["b"])
	}
	if !strings.HasPrefix(got["f"], "completed ") || !strings.Contains(got["f"], `"text":"flooded 2000"`) {
		t.Errorf("flood = %q, want its answer", got["f"])
	}
	_ = in.Close()
	if code := wait(t, cmd); code != 0 {
		t.Errorf("exit code %d; stderr:\n%s", code, stderr)
	}
}
