package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// mcpServersDir holds the pinned npm MCP servers (scripts/install-mcp).
const mcpServersDir = "../../mcpclient/testdata/servers"

// fsServer is the entry point of @modelcontextprotocol/server-filesystem,
// or the test is skipped (failed under CI) when node or the package is
// missing.
func fsServer(t *testing.T) string {
	t.Helper()
	entry, err := filepath.Abs(filepath.Join(mcpServersDir, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js"))
	if err != nil {
		t.Fatal(err)
	}
	_, nodeErr := exec.LookPath("node")
	_, statErr := os.Stat(entry)
	if nodeErr != nil || statErr != nil {
		why := fmt.Sprintf("node (%v) or the npm MCP servers (%v) missing: run scripts/install-mcp", nodeErr, statErr)
		if os.Getenv("CI") != "" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	return entry
}

// permClient is an ACP client that records permission requests and
// answers the n-th with the option whose name starts with answers[n]
// (cancelled when none).
type permClient struct {
	acpClient
	answers []string
	pmu     sync.Mutex
	asked   []sdk.RequestPermissionRequest
}

func (c *permClient) RequestPermission(_ context.Context, r sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	time.Sleep(personReads) // the person reads the question before answering
	c.pmu.Lock()
	c.asked = append(c.asked, r)
	answer := ""
	if n := len(c.asked) - 1; n < len(c.answers) {
		answer = c.answers[n]
	}
	c.pmu.Unlock()
	for _, o := range r.Options {
		if answer != "" && strings.HasPrefix(o.Name, answer) {
			return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: o.OptionId}}}, nil
		}
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{}}}, nil
}

// callOutcomes are the final status and text of each tool call by id.
func (c *permClient) callOutcomes() map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]string{}
	for _, u := range c.updates {
		tu := u.Update.ToolCallUpdate
		if tu == nil || tu.Status == nil || (*tu.Status != sdk.ToolCallStatusCompleted && *tu.Status != sdk.ToolCallStatusFailed) {
			continue
		}
		text := ""
		for _, ct := range tu.Content {
			if ct.Content != nil && ct.Content.Content.Text != nil {
				text += ct.Content.Content.Text.Text
			}
		}
		out[string(tu.ToolCallId)] = string(*tu.Status) + " " + text
	}
	return out
}

// TestMCPFilesystemServerUnderPlanMode drives the real `agentls acp` with
// the real @modelcontextprotocol/server-filesystem, given by the ACP
// client in session/new: plan mode offers only the read-only tool (the
// writers are not among the tools the model is told of), the writers are refused
// before any byte reaches the server (the files are unchanged and nothing
// new exists), the user-listed read-only read_text_file runs; in build mode
// a writer is asked for, and runs once allowed.
func TestMCPFilesystemServerUnderPlanMode(t *testing.T) {
	t.Parallel()
	entry := fsServer(t)
	root := t.TempDir()
	dir := filepath.Join(root, "ws")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("original\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	q := func(s string) string { return fmt.Sprintf("%q", s) }
	script := filepath.Join(root, "script.yaml")
	if err := os.WriteFile(script, []byte(`
steps:
  - text: "Trying every writer."
    expect:
      system_contains: ["`+"`"+`mcp__fs__read_text_file`+"`"+`"]
      system_not_contains: ["mcp__fs__write_file", "mcp__fs__move_file"]
    tool_calls:
      - {id: w1, name: mcp__fs__write_file, args: {path: `+q(filepath.Join(dir, "new.txt"))+`, content: "pwned"}}
      - {id: w2, name: mcp__fs__edit_file, args: {path: `+q(notes)+`, edits: [{oldText: "original", newText: "pwned"}]}}
      - {id: w3, name: mcp__fs__move_file, args: {source: `+q(notes)+`, destination: `+q(filepath.Join(dir, "moved.txt"))+`}}
      - {id: w4, name: mcp__fs__create_directory, args: {path: `+q(filepath.Join(dir, "newdir"))+`}}
      - {id: r1, name: mcp__fs__read_text_file, args: {path: `+q(notes)+`}}
  - text: "Planned."
  - text: "Building."
    expect:
      system_contains: ["`+"`"+`mcp__fs__write_file`+"`"+`", "`+"`"+`mcp__fs__read_text_file`+"`"+`"]
    tool_calls:
      - {id: b0, name: mcp__fs__write_file, args: {path: `+q(filepath.Join(dir, "rejected.txt"))+`, content: "no"}}
      - {id: b1, name: mcp__fs__write_file, args: {path: `+q(filepath.Join(dir, "built.txt"))+`, content: "built"}}
      - {id: b2, name: mcp__fs__write_file, args: {path: `+q(filepath.Join(dir, "built2.txt"))+`, content: "built"}}
  - text: "Built."
`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(root, "agentls.yaml")
	if err := os.WriteFile(cfg, []byte("model: {provider: scripted, script: "+script+"}\nmcp: {read_only: [\"fs/read_text_file\"]}\n"+
		// The client's server has the network: its reader runs in plan mode only when listed.
		"plan_mode: {allow_network_tools: [mcp__fs__read_text_file]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(root, "agentls.log")
	cmd, in, out, stderr := agentlsProcess(t, "--config", cfg, "--log-file", logFile, "--log-level", "debug", "acp")
	client := &permClient{answers: []string{"Reject", "Always allow"}}
	conn := sdk.NewClientSideConnection(client, in, out)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	initRes, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if !initRes.AgentCapabilities.McpCapabilities.Http || initRes.AgentCapabilities.McpCapabilities.Sse {
		t.Errorf("mcpCapabilities = %+v, want http, no sse", initRes.AgentCapabilities.McpCapabilities)
	}
	sess, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{{Stdio: &sdk.McpServerStdio{
		Name: "fs", Command: "node", Args: []string{entry, dir}, Env: []sdk.EnvVariable{},
	}}}})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	res, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("plan")}})
	if err != nil || res.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", res, err)
	}
	got := client.callOutcomes()
	for _, id := range []string{"w1", "w2", "w3", "w4"} {
		if !strings.HasPrefix(got[id], "failed ") || !strings.Contains(got[id], "System is in Plan Mode") {
			t.Errorf("plan mode: %s = %q, want the plan-mode refusal", id, got[id])
		}
	}
	if !strings.HasPrefix(got["r1"], "completed ") || !strings.Contains(got["r1"], "original") {
		t.Errorf("plan mode: read_text_file = %q, want the file's text", got["r1"])
	}
	if b, _ := os.ReadFile(notes); string(b) != "original\n" {
		t.Errorf("plan mode changed notes.txt: %q", b)
	}
	for _, name := range []string{"new.txt", "moved.txt", "newdir"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("plan mode: %s exists: the server got a writer's call", name)
		}
	}
	client.pmu.Lock()
	if len(client.asked) != 0 {
		t.Errorf("plan mode asked %d permissions; refusals come before any question", len(client.asked))
	}
	client.pmu.Unlock()

	if _, err := conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: sess.SessionId, ModeId: "build"}); err != nil {
		t.Fatalf("session/set_mode build: %v", err)
	}
	res, err = conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("build")}})
	if err != nil || res.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("build prompt: %+v %v", res, err)
	}
	client.pmu.Lock()
	asked := append([]sdk.RequestPermissionRequest(nil), client.asked...)
	client.pmu.Unlock()
	// Rejected, then "Always allow this tool", then not asked again.
	if len(asked) != 2 {
		t.Fatalf("build mode asked %d times, want twice (the third call is always allowed)", len(asked))
	}
	var names []string
	for _, o := range asked[1].Options {
		names = append(names, o.Name)
	}
	if title := *asked[1].ToolCall.Title; !strings.Contains(title, "write_file") || !strings.Contains(title, "built.txt") || len(names) != 3 {
		t.Errorf("permission request: title %q, options %q", title, names)
	}
	got = client.callOutcomes()
	if !strings.Contains(got["b0"], "the user rejected") {
		t.Errorf("rejected call = %q", got["b0"])
	}
	if _, err := os.Stat(filepath.Join(dir, "rejected.txt")); err == nil {
		t.Error("the rejected write happened")
	}
	for _, name := range []string{"built.txt", "built2.txt"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != "built" {
			t.Errorf("build mode: %s = %q, %v", name, b, err)
		}
	}
	_ = in.Close()
	if code := wait(t, cmd); code != 0 {
		t.Errorf("exit code %d; stderr:\n%s", code, stderr)
	}
	log, _ := os.ReadFile(logFile)
	if !strings.Contains(string(log), "mcp: server running") {
		t.Errorf("log lacks the server's start:\n%s", log)
	}
}
