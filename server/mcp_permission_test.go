package server_test

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/sandbox"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// buildHostile builds the hostile MCP server (mcpclient/testdata/hostile).
func buildHostile(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "hostile")
	if out, err := exec.Command("go", "build", "-o", bin, "../mcpclient/testdata/hostile").CombinedOutput(); err != nil {
		t.Fatalf("build the hostile server: %v\n%s", err, out)
	}
	return bin
}

// mcpCallScript calls the hostile server's writer once, in build mode.
const mcpCallScript = `
steps:
  - tool_calls:
      - {id: w, name: mcp__evil__write_note, args: {path: "note.txt", content: "hi"}}
  - text: "Done."
    expect:
      tool_result_contains: {w: ["the user rejected"]}
`

// TestMCPCallQuestionShowsNetworkAndSandbox: the question of a mutating
// MCP call shows, like the run question, the server's network and sandbox
// (Guard III: every question shows what it grants) on agent/askUser (the
// question's text and its permission payload) and on a plain
// window/showMessageRequest.
func TestMCPCallQuestionShowsNetworkAndSandbox(t *testing.T) {
	bin := buildHostile(t)
	network, sandboxState := agent.MCPPlace(sandbox.Detect().Status(sandbox.Mode("auto")), false, true)
	where := "\n\nNetwork: " + network + "\nSandbox: " + sandboxState
	opts := map[string]any{"mcp": map[string]any{"servers": map[string]any{"evil": map[string]any{"command": bin}}}}
	t.Run("askUser", func(t *testing.T) {
		h := lsptest.Start(t, lsptest.Setup{Script: mcpCallScript, InitOpts: opts, Handlers: lspclient.Handlers{AskUser: decide("reject_once")}})
		s := h.NewSession("build")
		wantStop(t, h.Prompt(s.SessionID, "go"), "end_turn")
		asks := h.AskUserRequests("")
		if len(asks) != 1 {
			t.Fatalf("%d questions, want 1", len(asks))
		}
		a := asks[0]
		q := a.Questions[0].Question
		if a.Purpose != "permission" || !strings.HasPrefix(q, "Allow the MCP call `write_note ") || !strings.Contains(q, where) ||
			!strings.Contains(q, "MCP server `evil`") || !strings.Contains(q, "readOnlyHint") {
			t.Fatalf("question = %q, want the call, then%q", q, where)
		}
		if p := a.Permission; p == nil || p.Kind != "mcp" || p.Network != network || p.Sandbox != sandboxState || p.Reach != "network" {
			t.Fatalf("permission payload = %+v, want network %q, sandbox %q and reach network (the server has the network)", a.Permission, network, sandboxState)
		}
	})
	t.Run("showMessageRequest", func(t *testing.T) {
		h := lsptest.Start(t, lsptest.Setup{Caps: noAskCaps(true), Script: mcpCallScript, InitOpts: opts,
			Handlers: lspclient.Handlers{ShowMessageRequest: func(raw json.RawMessage) any {
				var p lsptest.MessageRequest
				_ = json.Unmarshal(raw, &p)
				return p.Actions[0] // Reject comes first
			}}})
		s := h.NewSession("build")
		wantStop(t, h.Prompt(s.SessionID, "go"), "end_turn")
		reqs := h.MessageRequests()
		if len(reqs) != 1 {
			t.Fatalf("%d message requests, want 1", len(reqs))
		}
		r := reqs[0]
		if !strings.HasPrefix(r.Message, "Allow the MCP call `write_note ") || !strings.Contains(r.Message, where) || r.Actions[0]["title"] != "Reject" {
			t.Fatalf("message request = %+v, want%q", r, where)
		}
	})
}
