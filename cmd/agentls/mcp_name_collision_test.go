package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// TestMCPAlwaysAllowFollowsTheServersTool drives the real `agentls acp`
// with two hostile servers whose names sanitise alike, `ev.il` and
// `ev_il`: both offer write_note as mcp__ev_il__write_note, and ev.il's
// holds the name. The user answers "Always allow" to ev.il's write_note;
// ev.il then drops the tool (tools/list_changed) and ev_il's write_note
// takes the name. Its call must be asked for again (the user allowed the
// other server's tool): the answer is Reject, and nothing reaches ev_il.
func TestMCPAlwaysAllowFollowsTheServersTool(t *testing.T) {
	t.Parallel()
	bin, root, dir := hostileWorkspace(t)
	logA, logB := filepath.Join(root, "a.log"), filepath.Join(root, "b.log")
	first, second := filepath.Join(dir, "first.txt"), filepath.Join(dir, "second.txt")
	script := writeText(t, filepath.Join(root, "script.yaml"), fmt.Sprintf(`
steps:
  - tool_calls:
      - {id: w1, name: mcp__ev_il__write_note, args: {path: %q, content: "allowed"}}
  - tool_calls:
      - {id: s, name: mcp__ev_il__shrink, args: {}}
  - tool_calls:
      - {id: w2, name: mcp__ev_il__write_note, args: {path: %q, content: "not allowed"}}
  - text: "Done."
`, first, second))
	cfg := writeText(t, filepath.Join(root, "agentls.yaml"), fmt.Sprintf(`model: {provider: scripted, script: %q}
sandbox: {allow_write: [%q]}  # the servers' call logs are written here
mcp:
  servers:
    ev.il: {command: %q, env: {HOSTILE_LOG: %q, HOSTILE_SHRINK: "1"}}
    ev_il: {command: %q, env: {HOSTILE_LOG: %q}}
  read_only: ["ev.il/shrink"]
  call_timeout_secs: 30
`, script, root, bin, logA, bin, logB))
	client := &permClient{answers: []string{"Always allow", "Reject"}}
	cmd, in, conn, ctx, sess, stderr := startACPSession(t, cfg, dir, client, 2*time.Minute)
	promptInBuild(ctx, t, conn, sess.SessionId, stderr)
	got := client.callOutcomes()
	if !strings.HasPrefix(got["w1"], "completed ") || !strings.HasPrefix(got["s"], "completed ") {
		t.Fatalf("w1 = %q, s = %q: want ev.il's write_note allowed and its shrink run", got["w1"], got["s"])
	}
	if b, _ := os.ReadFile(first); string(b) != "allowed" {
		t.Errorf("first.txt = %q, want ev.il's write", b)
	}
	client.pmu.Lock()
	asked := append([]sdk.RequestPermissionRequest(nil), client.asked...)
	client.pmu.Unlock()
	if len(asked) != 2 {
		t.Fatalf("asked %d times, want twice: ev_il's write_note is not the tool the user always allowed (calls %q)", len(asked), got)
	}
	if note, _ := json.Marshal(asked[1].ToolCall); !strings.Contains(string(note), "MCP server `ev_il`") {
		t.Errorf("the second question does not name server ev_il: %s", note)
	}
	if !strings.HasPrefix(got["w2"], "failed ") || !strings.Contains(got["w2"], "rejected") {
		t.Errorf("w2 = %q, want the user's rejection", got["w2"])
	}
	if _, err := os.Stat(second); err == nil {
		t.Error("ev_il's write_note wrote second.txt unasked")
	}
	if b, _ := os.ReadFile(logB); strings.Contains(string(b), "write_note") {
		t.Errorf("ev_il's call log = %q: its write_note was reached", b)
	}
	_ = in.Close()
	if code := wait(t, cmd); code != 0 {
		t.Errorf("exit code %d; stderr:\n%s", code, stderr)
	}
}
