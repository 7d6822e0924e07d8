package mcpclient

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
)

// TestSpecsFromConfig: every key of an mcp.servers entry (issue 18's
// config shape: type, command, args, env, cwd, url, headers, disabled,
// network) reaches the server's spec; network defaults to yes for the
// user's configuration; a disabled server is skipped, saying so.
func TestSpecsFromConfig(t *testing.T) {
	no := false
	cfg := config.Default()
	cfg.MCP.Servers = map[string]config.MCPServer{
		"web":   {Type: "http", URL: "https://mcp.example/mcp", Headers: map[string]string{"Authorization": "Bearer t"}, Network: &no},
		"fs":    {Command: "node", Args: []string{"fs.js", "/w"}, Env: map[string]string{"TOKEN": "x"}, Cwd: "sub"},
		"quiet": {Command: "x", Disabled: true},
	}
	got := SpecsFromConfig(cfg)
	want := []ServerSpec{
		{Name: "fs", Command: "node", Args: []string{"fs.js", "/w"}, Env: map[string]string{"TOKEN": "x"}, Cwd: "sub", Network: true, Origin: FromConfig, Source: "mcp.servers"},
		{Name: "quiet", Command: "x", Network: true, Origin: FromConfig, Source: "mcp.servers", Skip: "disabled in the configuration"},
		{Name: "web", Type: "http", URL: "https://mcp.example/mcp", Headers: map[string]string{"Authorization": "Bearer t"}, Network: false, Origin: FromConfig, Source: "mcp.servers"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("specs:\n got %+v\nwant %+v", got, want)
	}
}

// TestDisabledAndCwdInThePool: a disabled server never starts (skipped,
// with the reason, even when its command does not exist); a server's cwd,
// relative to the workspace root, is the folder it runs in.
func TestDisabledAndCwdInThePool(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.MCP.Servers = map[string]config.MCPServer{
		"off":   {Command: "/nonexistent/mcp-server", Disabled: true},
		"where": {Command: "sh", Args: []string{"-c", "echo cwd=$(pwd) >&2; exit 3"}, Cwd: "sub"},
	}
	p := NewPool(root, []string{root}, nil)
	p.Configure(cfg, SpecsFromConfig(cfg))
	t.Cleanup(p.Close)
	if n := len(p.SessionTools(context.Background(), "s")); n != 0 {
		t.Fatalf("tools = %d, want none", n)
	}
	st := map[string]agentproto.MCPServerStatus{}
	for _, s := range p.Status() {
		st[s.Name] = s
	}
	if s := st["off"]; State(s.State) != StateSkipped || s.Reason != "disabled in the configuration" || s.StderrTail != "" {
		t.Errorf("off: %+v", s)
	}
	if s := st["where"]; State(s.State) != StateFailed || !strings.Contains(s.StderrTail, "cwd="+filepath.Join(root, "sub")) {
		t.Errorf("where: %+v, want it run in %s", s, filepath.Join(root, "sub"))
	}
}
