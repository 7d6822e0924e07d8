package server_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
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

// TestMCPEverythingOnLSP drives the real server-everything through the LSP
// face: its form elicitation is an agent/askUser question per field, in
// two batches of at most 8 (the answer, with the schema's default filled in, reaches the server); its URL
// elicitation is a question showing the URL, declined; its progress
// notifications are reports of the turn's work-done progress;
// its prompts are slash commands in agent/listCommands once it runs, and
// /mcp:every:args-prompt sends the prompt's text as the user's message; a
// resource named @every:<uri> in a prompt is read into the message.
func TestMCPEverythingOnLSP(t *testing.T) {
	entry := everythingEntry(t)
	var asked []lsptest.AskUser
	h := lsptest.Start(t, lsptest.Setup{
		Caps: progressCaps(),
		Script: `
steps:
  - tool_calls:
      - {id: e, name: mcp__every__trigger-elicitation-request, args: {}}
  - tool_calls:
      - {id: u, name: mcp__every__trigger-url-elicitation, args: {url: "https://example.com/sign-in?x=1", message: "Sign in there"}}
  - tool_calls:
      - {id: p, name: mcp__every__trigger-long-running-operation, args: {duration: 1, steps: 3}}
  - text: "Done."
    expect:
      tool_result_contains: {e: ["Ada", "It was a dark and stormy night."], u: ["decline"], p: ["Long running operation completed"]}
  - text: "Weather noted."
    expect:
      last_message_contains: ["Lyon"]
  - text: "Resource noted."
    expect:
      last_message_contains: ["Context from MCP server ` + "`every`" + `, resource demo://resource/static/document/architecture.md", "Architecture"]
`,
		InitOpts: map[string]any{"mcp": map[string]any{
			"servers":   map[string]any{"every": map[string]any{"command": "node", "args": []any{entry, "stdio"}, "network": false}}, // no network: its read-only tools run in plan mode
			"read_only": []any{"every/trigger-elicitation-request", "every/trigger-url-elicitation", "every/trigger-long-running-operation"},
		}},
		Handlers: lspclient.Handlers{AskUser: func(raw json.RawMessage) any {
			var a lsptest.AskUser
			_ = json.Unmarshal(raw, &a)
			asked = append(asked, a)
			if len(a.Questions) == 1 && a.Questions[0].Name == "url_elicitation" {
				return map[string]any{"answers": map[string]any{"url_elicitation": "decline"}}
			}
			answers := map[string]any{}
			for _, q := range a.Questions {
				if q.Name == "name" {
					answers["name"] = "Ada"
				}
			}
			return map[string]any{"answers": answers}
		}},
	})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "go"), "end_turn")
	if len(asked) != 3 {
		t.Fatalf("%d questions, want the form (in two parts) and the URL", len(asked))
	}
	form, url := asked[0], asked[2]
	if len(form.Questions) < 5 || form.Questions[0].Name != "name" || form.Questions[0].Optional ||
		!strings.Contains(form.Questions[0].Question, "MCP server `every` asks: Please provide inputs") {
		t.Errorf("form question = %+v", form.Questions[0])
	}
	if q := url.Questions[0].Question; !strings.Contains(q, "`https://example.com/sign-in?x=1`") || !strings.Contains(q, "agentls does not open it") || !strings.Contains(q, "Sign in there") {
		t.Errorf("URL question = %q", q)
	}
	// The progress is the turn's work-done progress; no tool_call_update
	// but a call's end (PROTOCOL.md).
	var progress []string
	for _, raw := range h.Messages("$/progress") {
		var p struct {
			Value struct{ Kind, Message string } `json:"value"`
		}
		_ = json.Unmarshal(raw, &p)
		if p.Value.Kind == "report" && strings.HasPrefix(p.Value.Message, "PLAN: mcp__every__trigger-long-running-operation: ") {
			progress = append(progress, p.Value.Message)
		}
	}
	if len(progress) == 0 || !strings.Contains(strings.Join(progress, " "), "/3") {
		t.Errorf("progress reports = %q, want n/3", progress)
	}
	for _, u := range lsptest.Updates[agent.UpdateToolCallDone](h, "tool_call_update") {
		if u.Status != "completed" && u.Status != "failed" {
			t.Errorf("a tool_call_update with status %q", u.Status)
		}
	}

	var names []string
	for _, c := range h.ListCommands(s.SessionID) {
		names = append(names, c.Name)
	}
	if all := strings.Join(names, " "); !strings.Contains(all, "mcp:every:simple-prompt") || !strings.Contains(all, "mcp:every:args-prompt") {
		t.Fatalf("commands = %v, want the server's prompts", names)
	}
	wantStop(t, h.Prompt(s.SessionID, "/mcp:every:args-prompt city=Lyon"), "end_turn")
	wantStop(t, h.Prompt(s.SessionID, "Summarise @every:demo://resource/static/document/architecture.md please"), "end_turn")
}

// TestMCPURLElicitationOnPlainClient: on a plain LSP client (no
// agent/askUser), a server's URL elicitation is a window/showMessageRequest
// showing the URL, answered with its buttons (Decline first); a form, which
// no plain surface can show, is answered cancel and the turn goes on.
func TestMCPURLElicitationOnPlainClient(t *testing.T) {
	entry := everythingEntry(t)
	h := lsptest.Start(t, lsptest.Setup{
		Caps: noAskCaps(true),
		Script: `
steps:
  - tool_calls:
      - {id: u, name: mcp__every__trigger-url-elicitation, args: {url: "https://example.com/plain", message: "Sign in"}}
  - tool_calls:
      - {id: e, name: mcp__every__trigger-elicitation-request, args: {}}
  - text: "Done."
    expect:
      tool_result_contains: {u: ["decline"], e: ["cancel"]}
`,
		InitOpts: map[string]any{"mcp": map[string]any{
			"servers":   map[string]any{"every": map[string]any{"command": "node", "args": []any{entry, "stdio"}, "network": false}}, // no network: its read-only tools run in plan mode
			"read_only": []any{"every/trigger-elicitation-request", "every/trigger-url-elicitation"},
		}},
		Handlers: lspclient.Handlers{ShowMessageRequest: func(raw json.RawMessage) any {
			var p lsptest.MessageRequest
			_ = json.Unmarshal(raw, &p)
			return p.Actions[0]
		}},
	})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "go"), "end_turn")
	reqs := h.MessageRequests()
	if len(reqs) != 1 || !strings.Contains(reqs[0].Message, "`https://example.com/plain`") || reqs[0].Actions[0]["title"] != "Decline" {
		t.Fatalf("message requests = %+v, want the URL question with Decline first", reqs)
	}
}
