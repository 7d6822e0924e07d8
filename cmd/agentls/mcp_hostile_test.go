package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// buildHostile builds the hostile MCP server (mcpclient/testdata/hostile).
func buildHostile(t *testing.T) string {
	t.Helper()
	return buildProgram(t, "../../mcpclient/testdata/hostile")
}

// buildProgram builds the test program in folder pkg (a path from here)
// and returns its path.
func buildProgram(t *testing.T, pkg string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), filepath.Base(pkg))
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		t.Fatalf("build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// hostileWorkspace builds the hostile MCP server and makes a test's
// folders: root for its script, configuration and the servers' call logs,
// and dir, the workspace inside it.
func hostileWorkspace(t *testing.T) (bin, root, dir string) {
	t.Helper()
	bin, root = buildHostile(t), t.TempDir()
	dir = filepath.Join(root, "ws")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, root, dir
}

// writeText writes text to path (0644) and returns path.
func writeText(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// promptInBuild switches the ACP session to build mode and sends one
// prompt, "go", which must end its turn.
func promptInBuild(ctx context.Context, t *testing.T, conn *sdk.ClientSideConnection, sid sdk.SessionId, stderr fmt.Stringer) {
	t.Helper()
	if _, err := conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: sid, ModeId: "build"}); err != nil {
		t.Fatalf("session/set_mode build: %v", err)
	}
	res, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sid, Prompt: []sdk.ContentBlock{sdk.TextBlock("go")}})
	if err != nil || res.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v; stderr:\n%s", res, err, stderr)
	}
}

// TestMCPHostileServer drives the real `agentls acp` with a hostile MCP
// server of the configuration (mcp.servers): its writer claims
// readOnlyHint and is still refused in plan mode without reaching it (its
// call log stays empty of it); a 200 KB result is cut to run.max_output_bytes;
// a call that never answers fails after mcp.call_timeout_secs; a server
// that exits in the middle of a call fails that call with its stderr, and
// the turn goes on to its end.
func TestMCPHostileServer(t *testing.T) {
	t.Parallel()
	bin, root, dir := hostileWorkspace(t)
	callLog := filepath.Join(root, "calls.log")
	target := filepath.Join(dir, "note.txt")
	script := writeText(t, filepath.Join(root, "script.yaml"), fmt.Sprintf(`
steps:
  - text: "Misbehaving."
    tool_calls:
      - {id: w, name: mcp__evil__write_note, args: {path: %q, content: "pwned"}}
  - tool_calls:
      - {id: h, name: mcp__evil__huge, args: {bytes: 200000}}  # ten times the cap: a larger one took over the call timeout under -race on a busy machine
  - tool_calls:
      - {id: n, name: mcp__evil__hang, args: {}}
  - tool_calls:
      - {id: d, name: mcp__evil__die, args: {}}
  - text: "Still here."
`, target))
	cfg := writeText(t, filepath.Join(root, "agentls.yaml"), fmt.Sprintf(`model: {provider: scripted, script: %q}
run: {max_output_bytes: 20000}
sandbox: {allow_write: [%q]}  # the server runs in the sandbox: its call log is written here
mcp:
  servers:
    evil: {command: %q, network: false, env: {HOSTILE_LOG: %q}}
  read_only: ["evil/huge", "evil/hang", "evil/die"]
  call_timeout_secs: 3
`, script, root, bin, callLog))
	client := &permClient{}
	cmd, in, conn, ctx, sess, stderr := startACPSession(t, cfg, dir, client, 2*time.Minute)
	res, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("go")}})
	if err != nil || res.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v; stderr:\n%s", res, err, stderr)
	}
	got := client.callOutcomes()
	if !strings.HasPrefix(got["w"], "failed ") || !strings.Contains(got["w"], "System is in Plan Mode") {
		t.Errorf("write_note (readOnlyHint) = %q, want the plan-mode refusal", got["w"])
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("the hostile writer wrote its file")
	}
	if !strings.HasPrefix(got["h"], "completed ") || !strings.Contains(got["h"], "cut: ") || len(got["h"]) > 25000 {
		t.Errorf("huge: %d bytes, want under 25000 with a cut note: %.200q", len(got["h"]), got["h"])
	}
	if !strings.HasPrefix(got["n"], "failed ") || !strings.Contains(got["n"], "no answer within 3s") {
		t.Errorf("hang = %q, want the timeout", got["n"])
	}
	// Its death is named with its stderr's tail: as an exit, or — when the
	// broken pipe is seen before the exit status, as on a busy machine —
	// as the connection that broke.
	if died := got["d"]; !strings.HasPrefix(died, "failed ") || !strings.Contains(died, "exited") && !strings.Contains(died, "its connection broke") || !strings.Contains(died, "dying on purpose") {
		t.Errorf("die = %q, want the exit with the stderr tail", got["d"])
	}
	calls, _ := os.ReadFile(callLog)
	if strings.Contains(string(calls), "write_note") || !strings.Contains(string(calls), "huge") || !strings.Contains(string(calls), "die") {
		t.Errorf("the server's call log = %q: write_note must never reach it, the others must", calls)
	}
	_ = in.Close()
	if code := wait(t, cmd); code != 0 {
		t.Errorf("exit code %d; stderr:\n%s", code, stderr)
	}
}

// TestMCPHTTPServerFromACPClient: an HTTP MCP server given by the ACP
// client in session/new is reached with the client's headers; its
// user-listed read-only tool runs in plan mode (named in
// plan_mode.allow_network_tools: its reach is the network), another
// user-listed read-only tool not named there is refused, and its writer
// (claiming readOnlyHint) is refused, both before any request about them.
func TestMCPHTTPServerFromACPClient(t *testing.T) {
	t.Parallel()
	bin, root, dir := hostileWorkspace(t)
	callLog := filepath.Join(root, "calls.log")
	web := exec.Command(bin)
	web.Env = append(os.Environ(), "HOSTILE_HTTP=1", "HOSTILE_LOG="+callLog)
	stdout, err := web.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := web.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = web.Process.Kill(); _ = web.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("the HTTP server's URL: %v", err)
	}
	url := strings.TrimSpace(line)
	script := writeText(t, filepath.Join(root, "script.yaml"), fmt.Sprintf(`
steps:
  - tool_calls:
      - {id: w, name: mcp__web__write_note, args: {path: %q, content: "pwned"}}
      - {id: e, name: mcp__web__echo, args: {path: "x", content: "over http"}}
      - {id: h, name: mcp__web__huge, args: {bytes: 10}}
  - text: "Done."
`, filepath.Join(dir, "note.txt")))
	cfg := writeText(t, filepath.Join(root, "agentls.yaml"), fmt.Sprintf("model: {provider: scripted, script: %q}\nmcp: {read_only: [\"web/echo\", \"web/huge\"]}\nplan_mode: {allow_network_tools: [\"mcp__web__echo\"]}\n", script))
	cmd, in, out, stderr := agentlsProcess(t, "--config", cfg, "acp")
	client := &permClient{}
	conn := sdk.NewClientSideConnection(client, in, out)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	sess, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{{Http: &sdk.McpServerHttpInline{
		Name: "web", Type: "http", Url: url, Headers: []sdk.HttpHeader{{Name: "Authorization", Value: "Bearer from-client"}},
	}}}})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	if res, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("go")}}); err != nil || res.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v; stderr:\n%s", res, err, stderr)
	}
	got := client.callOutcomes()
	// An HTTP server's tools have network reach: the read-only huge, not in
	// plan_mode.allow_network_tools, is refused in plan mode like a writer.
	if !strings.Contains(got["w"], "System is in Plan Mode") || !strings.Contains(got["e"], "over http") ||
		!strings.HasPrefix(got["h"], "failed ") || !strings.Contains(got["h"], "System is in Plan Mode") {
		t.Errorf("outcomes: %q", got)
	}
	calls, _ := os.ReadFile(callLog)
	if !strings.Contains(string(calls), "http Bearer from-client") || !strings.Contains(string(calls), "echo over http") ||
		strings.Contains(string(calls), "write_note") || strings.Contains(string(calls), "huge") {
		t.Errorf("the HTTP server's log = %q", calls)
	}
	_ = in.Close()
	if code := wait(t, cmd); code != 0 {
		t.Errorf("exit code %d; stderr:\n%s", code, stderr)
	}
}
