package main

import (
	"context"
	"encoding/json"
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

// everythingEntry is the entry point of @modelcontextprotocol/server-everything,
// or the test is skipped (failed under CI) when node or the package is missing.
func everythingEntry(t *testing.T) string {
	t.Helper()
	entry, err := filepath.Abs(filepath.Join(mcpServersDir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"))
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

// elicitClient is a permClient that takes form elicitations: it answers
// each with the field "name" when the form has it.
type elicitClient struct {
	permClient
	emu   sync.Mutex
	forms []string
}

func (c *elicitClient) UnstableCreateElicitation(_ context.Context, p sdk.UnstableCreateElicitationRequest) (sdk.UnstableCreateElicitationResponse, error) {
	raw, _ := json.Marshal(p)
	c.emu.Lock()
	c.forms = append(c.forms, string(raw))
	c.emu.Unlock()
	content := map[string]any{}
	if strings.Contains(string(raw), "Your full, legal name") {
		content["name"] = "Ada"
	}
	return sdk.UnstableCreateElicitationResponse{Accept: &sdk.UnstableCreateElicitationAccept{Action: "accept", Content: content}}, nil
}

// TestMCPEverythingThroughTheBinary drives the real `agentls acp` with the
// real @modelcontextprotocol/server-everything given in session/new: its
// tools run (the elicitation tool, which it registers once it knows the
// client's capabilities, arrives by tools/list_changed); its form
// elicitation reaches the ACP client as elicitation/create and the answer,
// defaults filled in, reaches the server; its progress arrives as
// tool_call_update in_progress; its prompts are announced in
// available_commands_update after the first turn and run as
// /mcp:every:args-prompt; a resource_link of its resource is read into the
// message.
func TestMCPEverythingThroughTheBinary(t *testing.T) {
	entry := everythingEntry(t)
	root := t.TempDir()
	dir := filepath.Join(root, "ws")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(root, "script.yaml")
	if err := os.WriteFile(script, []byte(`
steps:
  - tool_calls:
      - {id: echo, name: mcp__every__echo, args: {message: "hello from everything"}}
  - tool_calls:
      - {id: e, name: mcp__every__trigger-elicitation-request, args: {}}
  - tool_calls:
      - {id: p, name: mcp__every__trigger-long-running-operation, args: {duration: 1, steps: 3}}
  - text: "Done."
    expect:
      tool_result_contains: {echo: ["hello from everything"], e: ["Ada", "It was a dark and stormy night."], p: ["Long running operation completed"]}
  - text: "Weather noted."
    expect:
      last_message_contains: ["Lyon"]
  - text: "Resource noted."
    expect:
      last_message_contains: ["Context from MCP server `+"`every`"+`, resource demo://resource/static/document/architecture.md"]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(root, "agentls.yaml")
	if err := os.WriteFile(cfg, []byte("model: {provider: scripted, script: "+script+"}\nmcp: {read_only: [\"every/echo\", \"every/trigger-elicitation-request\", \"every/trigger-long-running-operation\"]}\n"+
		// The client's server has the network: its tools run in plan mode only when listed.
		"plan_mode: {allow_network_tools: [mcp__every__echo, mcp__every__trigger-elicitation-request, mcp__every__trigger-long-running-operation]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd, in, out, stderr := agentlsProcess(t, "--config", cfg, "acp")
	client := &elicitClient{}
	conn := sdk.NewClientSideConnection(client, in, out)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber,
		ClientCapabilities: sdk.ClientCapabilities{Elicitation: &sdk.ElicitationCapabilities{Form: &sdk.ElicitationFormCapabilities{}}}}); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	sess, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{{Stdio: &sdk.McpServerStdio{
		Name: "every", Command: "node", Args: []string{entry, "stdio"}, Env: []sdk.EnvVariable{},
	}}}})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	prompt := func(blocks ...sdk.ContentBlock) {
		t.Helper()
		res, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: blocks})
		if err != nil || res.StopReason != sdk.StopReasonEndTurn {
			t.Fatalf("prompt: %+v %v; stderr:\n%s", res, err, stderr)
		}
	}
	prompt(sdk.TextBlock("go"))
	client.emu.Lock()
	if len(client.forms) != 2 { // the form in two parts
		t.Errorf("%d elicitations, want the form in two parts", len(client.forms))
	}
	client.emu.Unlock()
	client.mu.Lock()
	var progress, commands []string
	for _, n := range client.updates {
		if u := n.Update.ToolCallUpdate; u != nil && u.ToolCallId == "p" && u.Status != nil && *u.Status == sdk.ToolCallStatusInProgress {
			for _, c := range u.Content {
				if c.Content != nil && c.Content.Content.Text != nil {
					progress = append(progress, c.Content.Content.Text.Text)
				}
			}
		}
		if u := n.Update.AvailableCommandsUpdate; u != nil {
			for _, c := range u.AvailableCommands {
				commands = append(commands, c.Name)
			}
		}
	}
	client.mu.Unlock()
	if !strings.Contains(strings.Join(progress, " "), "/3") {
		t.Errorf("progress = %q, want n/3", progress)
	}
	if !strings.Contains(strings.Join(commands, " "), "mcp:every:args-prompt") {
		t.Errorf("announced commands = %q, want the server's prompts", commands)
	}
	prompt(sdk.TextBlock("/mcp:every:args-prompt city=Lyon"))
	prompt(sdk.TextBlock("Summarise this"), sdk.ResourceLinkBlock("architecture", "demo://resource/static/document/architecture.md"))
	_ = in.Close()
	if code := wait(t, cmd); code != 0 {
		t.Errorf("exit code %d; stderr:\n%s", code, stderr)
	}
}
