package mcpclient

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/sandbox"
	"github.com/agentls/agentls/workspace"
)

// TestStdioServerWithNetworkIsNetworkReachInPlanMode: a stdio server that
// has the network (config.MCPServer.Network unset: yes; MCPPolicy(…,
// spec.Network)) can send whatever the model passes its tools off the
// machine, exactly as an HTTP server: its tools have reach network, so a
// read-only one is refused in plan mode unless plan_mode.allow_network_tools
// names it (docs/guard.md), and the refusal says both ways to allow it.
// Only a server the sandbox keeps off the network (network: false) is a
// mere process; under sandbox.mode off nothing keeps it off, so network:
// false does not make it one.
func TestStdioServerWithNetworkIsNetworkReachInPlanMode(t *testing.T) {
	if st := sandbox.Detect().Status(sandbox.ModeAuto); !st.Confines() {
		t.Skip("no sandbox layer here: no server is kept off the network (" + st.Summary + ")")
	}
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
	r := g.CheckCall(plan, "mcp__net__echo", args)
	if r == nil || r.Reason != guard.ReasonPlanMode {
		t.Fatalf("plan mode ran a read-only tool of a stdio server that has the network, not listed in plan_mode.allow_network_tools (refusal %+v)", r)
	}
	for _, want := range []string{"`plan_mode.allow_network_tools: [mcp__net__echo]`", "`network: false`", `"net"`} {
		if !strings.Contains(r.Hint, want) {
			t.Errorf("the refusal's hint does not say %s: %q", want, r.Hint)
		}
	}
	if r := g.WithNetworkTools("mcp__net__echo").CheckCall(plan, "mcp__net__echo", args); r != nil {
		t.Errorf("listed in plan_mode.allow_network_tools, still refused: %+v", r)
	}
}

// TestUnsandboxedStdioServerIsNetworkReach: under sandbox.mode off no layer
// can keep a server off the network (its question shows "Network: not
// isolated"), so even a server with network: false has reach network, and
// the refusal says that network: false alone does not help here.
func TestUnsandboxedStdioServerIsNetworkReach(t *testing.T) {
	cfg := config.Default()
	cfg.Sandbox.Mode = "off"
	cfg.MCP.ReadOnly = []string{"local/echo"}
	root := t.TempDir()
	p := NewPool(root, []string{root}, os.Environ)
	p.Configure(cfg, []ServerSpec{{Name: "local", Command: hostileBin, Network: false, Origin: FromConfig}})
	t.Cleanup(p.Close)
	echo := toolByName(t, p.SessionTools(context.Background(), "s1"), "mcp__local__echo")
	d := echo.Spec().Guard
	if d.Reach != agentproto.ReachNetwork {
		t.Fatalf("reach of a tool of an unsandboxed stdio server with network: false = %q, want %q", d.Reach, agentproto.ReachNetwork)
	}
	if !strings.Contains(d.NetworkRemedy, "sandbox off") {
		t.Errorf("the remedy does not say the sandbox cannot switch the network off here: %q", d.NetworkRemedy)
	}
}
