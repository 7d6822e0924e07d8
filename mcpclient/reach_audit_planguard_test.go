package mcpclient

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// TestStdioServerWithNetworkIsNetworkReachInPlanMode: a stdio server the
// user configured gets the network (config.MCPServer.Network unset: yes;
// MCPPolicy(…, spec.Network)), so whatever the model passes its tools can
// leave the machine exactly as through an HTTP server's. docs/guard.md
// refuses a tool of network reach in plan mode unless
// plan_mode.allow_network_tools names it ("what it sends may carry
// workspace text"); a read-only tool of such a stdio server (a GitHub or
// fetch server run with npx, mcp-remote) is declared reach "process" and
// runs in plan mode unlisted. Only a server without the network
// (network: false) is a mere process.
func TestStdioServerWithNetworkIsNetworkReachInPlanMode(t *testing.T) {
	cfg := config.Default()
	cfg.MCP.ReadOnly = []string{"net/echo", "local/echo"}
	root := t.TempDir()
	p := NewPool(root, []string{root}, os.Environ)
	p.Configure(cfg, []ServerSpec{
		{Name: "net", Command: hostileBin, Network: true, Origin: FromConfig},
		{Name: "local", Command: hostileBin, Network: false, Origin: FromConfig},
	})
	t.Cleanup(p.Close)
	ts := p.SessionTools(context.Background(), "s1")
	netEcho := toolByName(t, ts, "mcp__net__echo")
	localEcho := toolByName(t, ts, "mcp__local__echo")

	ws, err := workspace.New(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "plans"), 0o755); err != nil {
		t.Fatal(err)
	}
	decls, err := guard.NewTools(netEcho.Spec().Guard, localEcho.Spec().Guard)
	if err != nil {
		t.Fatal(err)
	}
	g := guard.New(ws, "plans", decls)
	plan := guard.State{Mode: agentproto.ModePlan, Session: "s1"}
	args := json.RawMessage(`{"text":"the workspace's secret, sent away"}`)

	if r := g.CheckCall(plan, "mcp__local__echo", args); r != nil {
		t.Fatalf("a read-only tool of a server without the network was refused in plan mode: %+v", r)
	}
	if got := netEcho.Spec().Guard.Reach; got != agentproto.ReachNetwork {
		t.Errorf("reach of a read-only tool of a stdio server with the network = %q, want %q", got, agentproto.ReachNetwork)
	}
	if r := g.CheckCall(plan, "mcp__net__echo", args); r == nil || r.Reason != guard.ReasonPlanMode {
		t.Errorf("plan mode ran a read-only tool of a stdio server that has the network, not listed in plan_mode.allow_network_tools (refusal %+v)", r)
	}
	if r := g.WithNetworkTools("mcp__net__echo").CheckCall(plan, "mcp__net__echo", args); r != nil {
		t.Errorf("listed in plan_mode.allow_network_tools, still refused: %+v", r)
	}
}
