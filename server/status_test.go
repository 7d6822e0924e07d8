package server_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/fakeopenai"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// tinyMCPServer is the dependency-free MCP server of the editors' tests
// (testdata/mcp/tiny-server.mjs), or a skip when node is missing.
func tinyMCPServer(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is missing")
		}
		t.Skip("node is missing")
	}
	p, err := filepath.Abs("../testdata/mcp/tiny-server.mjs")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestStatusDoesNotProbeTheModel: agent/status reports the sandbox and the
// MCP servers — one running with its tools (count and names), one failed with its reason and
// the tail of its stderr — and the model's endpoint sees no request for it
// (agent/checkModel, for comparison, makes one). The editors ask it after
// every turn.
func TestStatusDoesNotProbeTheModel(t *testing.T) {
	t.Parallel()
	tiny := tinyMCPServer(t)
	fake := fakeopenai.New(fakeopenai.Options{})
	defer fake.Close()
	h := lsptest.Start(t, lsptest.Setup{
		Caps:      lsptest.FullCaps(),
		RealModel: true,
		Env:       map[string]string{"MY_KEY": "sk-test"},
		InitOpts: map[string]any{
			"model": map[string]any{"provider": "openai", "base_url": fake.URL, "api_key_env": "MY_KEY", "name": "test-model"},
			"mcp": map[string]any{"servers": map[string]any{
				"tiny":   map[string]any{"command": "node", "args": []any{tiny}},
				"broken": map[string]any{"command": "sh", "args": []any{"-c", "echo 'broken: cannot open the database' >&2; exit 3"}},
			}},
		},
	})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "hello"), "end_turn")
	// Every request to the endpoint: chat requests and requests for its
	// models (or their context windows).
	sent := func() int { return len(fake.Requests()) + len(fake.Asks()) }
	before := sent()
	st := lsptest.MustCall(h, agentproto.Status, agentproto.Empty{})
	if n := sent(); n != before {
		t.Fatalf("agent/status made %d requests to the model's endpoint, want none", n-before)
	}
	if st.Sandbox.Summary == "" || st.Sandbox.Mode == "" {
		t.Errorf("sandbox not reported: %+v", st.Sandbox)
	}
	byName := map[string]agentproto.MCPServerStatus{}
	for _, m := range st.MCPServers {
		byName[m.Name] = m
	}
	if m := byName["tiny"]; m.State != "running" || m.Tools != 2 || m.Origin != "config" {
		t.Errorf("tiny: %+v", m)
	}
	if got := strings.Join(byName["tiny"].ToolNames, ","); got != "lookup,write_note" {
		t.Errorf("tiny's tool names = %q, want lookup,write_note (the tooltips list them)", got)
	}
	if m := byName["broken"]; m.State != "failed" || !strings.Contains(m.StderrTail, "cannot open the database") || m.Reason == "" {
		t.Errorf("broken: %+v", m)
	}
	// The same through the command, shown for an editor without a plugin.
	if _, err := lsptest.Call(h, agentproto.Status, agentproto.Empty{}); err != nil {
		t.Fatal(err)
	}
	var res agentproto.AgentStatus
	if err := h.Editor.Call(h.Ctx, "workspace/executeCommand", map[string]any{"command": "agentls.status", "arguments": []any{map[string]any{}}}, &res); err != nil {
		t.Fatal(err)
	}
	h.AwaitShown("agentls: MCP server tiny (node " + tiny + ", from config): running, 2 tools")
	if m := h.AwaitShown("agentls: MCP server broken"); m.Type != 1 || !strings.Contains(m.Message, "its stderr ends with: broken: cannot open the database") {
		t.Errorf("the failed server's message: %+v", m)
	}
	h.AwaitShown("agentls: sandbox: ")
	if n := sent(); n != before {
		t.Fatalf("agentls.status made %d requests to the model's endpoint, want none", n-before)
	}
	// agentls.checkModel does probe it (the count above could see one), and
	// lists the MCP servers too.
	if err := h.Editor.Call(h.Ctx, "workspace/executeCommand", map[string]any{"command": "agentls.checkModel", "arguments": []any{map[string]any{}}}, nil); err != nil {
		t.Fatal(err)
	}
	if n := sent(); n != before+1 {
		t.Fatalf("agentls.checkModel made %d requests, want 1", n-before)
	}
	h.Await(lsptest.MessageMatching("agentls.checkModel's line of the failed server", func(lspclient.Message) bool {
		n := 0
		for _, m := range h.Shown() {
			if strings.HasPrefix(m.Message, "agentls: MCP server broken (") {
				n++
			}
		}
		return n == 2
	}))
}
