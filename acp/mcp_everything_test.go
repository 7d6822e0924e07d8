package acp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// everythingEntry is the pinned @modelcontextprotocol/server-everything
// (scripts/install-mcp), or the test is skipped (failed under CI).
func everythingEntry(t *testing.T) string {
	t.Helper()
	entry, err := filepath.Abs("../mcpclient/testdata/servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
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

// TestMCPEverythingOnACP drives the real server-everything, given by the
// client in session/new, through the ACP face: its form elicitation is an
// ACP elicitation (the answer, defaults filled in, reaches the server); a
// URL elicitation shows the URL; its progress arrives as tool_call_update
// in_progress; its prompts are in available_commands_update once it runs;
// a resource_link of its resource is read into the message.
func TestMCPEverythingOnACP(t *testing.T) {
	entry := everythingEntry(t)
	var forms []sdk.UnstableCreateElicitationRequest
	client := &testClient{elicit: func(p sdk.UnstableCreateElicitationRequest) sdk.UnstableCreateElicitationResponse {
		forms = append(forms, p)
		content := map[string]any{}
		raw, _ := json.Marshal(p)
		b := string(raw)
		switch {
		case strings.Contains(b, "url_elicitation"):
			content["url_elicitation"] = "decline"
		case strings.Contains(b, "Your full, legal name"):
			content["name"] = "Ada"
		}
		return sdk.UnstableCreateElicitationResponse{Accept: &sdk.UnstableCreateElicitationAccept{Action: "accept", Content: content}}
	}}
	r := newRig(t, setup{client: client, caps: formCaps,
		userConfig: `mcp: {read_only: ["every/trigger-elicitation-request", "every/trigger-url-elicitation", "every/trigger-long-running-operation"]}` + "\n" +
			// The client's server has the network: its tools run in plan mode only when listed.
			`plan_mode: {allow_network_tools: [mcp__every__trigger-elicitation-request, mcp__every__trigger-url-elicitation, mcp__every__trigger-long-running-operation]}` + "\n",
		script: `
steps:
  - tool_calls:
      - {id: e, name: mcp__every__trigger-elicitation-request, args: {}}
  - tool_calls:
      - {id: u, name: mcp__every__trigger-url-elicitation, args: {url: "https://example.com/acp", message: "Over there"}}
  - tool_calls:
      - {id: p, name: mcp__every__trigger-long-running-operation, args: {duration: 1, steps: 3}}
  - text: "Done."
    expect:
      tool_result_contains: {e: ["Ada", "It was a dark and stormy night."], u: ["decline"], p: ["Long running operation completed"]}
  - text: "Resource noted."
    expect:
      last_message_contains: ["Context from MCP server ` + "`every`" + `, resource demo://resource/static/document/architecture.md", "Architecture"]
`})
	sess, err := r.conn.NewSession(r.ctx, sdk.NewSessionRequest{Cwd: r.dir, McpServers: []sdk.McpServer{{Stdio: &sdk.McpServerStdio{
		Name: "every", Command: "node", Args: []string{entry, "stdio"}, Env: []sdk.EnvVariable{},
	}}}})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	sid := sess.SessionId
	if stop := r.mustPrompt(sid, "go"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s", stop)
	}
	if raw, _ := json.Marshal(forms); len(forms) != 3 || !strings.Contains(string(raw), "https://example.com/acp") {
		t.Fatalf("elicitations = %d (want the form in two parts and the URL): %v", len(forms), forms)
	}
	var progress []string
	for _, u := range client.toolUpdates("p") {
		if u.Status != nil && *u.Status == sdk.ToolCallStatusInProgress {
			for _, c := range u.Content {
				if c.Content != nil && c.Content.Content.Text != nil {
					progress = append(progress, c.Content.Content.Text.Text)
				}
			}
		}
	}
	if !strings.Contains(strings.Join(progress, " "), "/3") {
		t.Errorf("progress = %q, want n/3", progress)
	}
	var announced []string
	for _, m := range r.wire.all() {
		if p, ok := m["params"].(map[string]any); ok && m["method"] == "session/update" {
			if u, _ := p["update"].(map[string]any); u["sessionUpdate"] == "available_commands_update" {
				announced = append(announced, fmt.Sprint(u["availableCommands"]))
			}
		}
	}
	if len(announced) < 2 || !strings.Contains(announced[len(announced)-1], "mcp:every:args-prompt") {
		t.Errorf("available_commands_update = %q, want the server's prompts after the first turn", announced)
	}
	res, err := r.conn.Prompt(r.ctx, sdk.PromptRequest{SessionId: sid, Prompt: []sdk.ContentBlock{
		sdk.TextBlock("Summarise this"), sdk.ResourceLinkBlock("architecture", "demo://resource/static/document/architecture.md"),
	}})
	if err != nil || res.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("resource prompt: %+v %v", res, err)
	}
}
