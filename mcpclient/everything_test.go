package mcpclient

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/config"
)

// everythingServer is the entry point of the pinned
// @modelcontextprotocol/server-everything, or the test is skipped (failed
// under CI) when node or the package is missing (scripts/install-mcp).
func everythingServer(t *testing.T) string {
	t.Helper()
	entry, err := filepath.Abs(filepath.Join("testdata", "servers", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"))
	if err != nil {
		t.Fatal(err)
	}
	_, nodeErr := exec.LookPath("node")
	_, statErr := os.Stat(entry)
	if nodeErr != nil || statErr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("node (%v) or the npm MCP servers (%v) missing: run scripts/install-mcp", nodeErr, statErr)
		}
		t.Skipf("node (%v) or the npm MCP servers (%v) missing: run scripts/install-mcp", nodeErr, statErr)
	}
	return entry
}

// TestEverythingServer runs the real server-everything: its tools are
// listed and classified (nothing read-only but what the user listed, though
// it annotates some readOnlyHint), and calls render text, images and
// structured content; get-env shows the server's environment has neither
// the model's key nor run.env_deny's variables, but has its own env.
func TestEverythingServer(t *testing.T) {
	entry := everythingServer(t)
	root := t.TempDir()
	cfg := config.Default()
	cfg.MCP.ReadOnly = []string{"every/echo", "every/get-env"}
	p := NewPool(root, []string{root}, func() []string {
		return append(os.Environ(), "OPENAI_API_KEY=sk-model-secret", "GH_TOKEN=gh-secret", "AGENTLS_PLAIN=plain-value")
	})
	t.Cleanup(p.Close)
	p.Configure(cfg, []ServerSpec{{Name: "every", Command: "node", Args: []string{entry, "stdio"}, Env: map[string]string{"GIVEN_TOKEN": "given"}, Origin: FromConfig}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ts := p.SessionTools(ctx, "s")
	if len(ts) < 10 {
		t.Fatalf("%d tools; status %+v", len(ts), p.Status())
	}
	for _, x := range ts {
		tool := x.(*Tool)
		want := tool.tool.Name == "echo" || tool.tool.Name == "get-env"
		if tool.ReadOnly() != want {
			t.Errorf("%s: read-only %v, want %v", tool.name, tool.ReadOnly(), want)
		}
		if !strings.HasPrefix(tool.name, "mcp__every__") || strings.ContainsAny(tool.name, ". /") {
			t.Errorf("tool name %q", tool.name)
		}
	}
	s := p.servers("s")[0]
	call := func(tool string, args map[string]any) CallResult {
		t.Helper()
		res, err := s.Call(ctx, tool, args, 30*time.Second, 30000)
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		return res
	}
	if r := call("echo", map[string]any{"message": "hello <b>"}); !strings.Contains(r.Text, "hello <b>") {
		t.Errorf("echo = %+v", r)
	}
	if r := call("get-sum", map[string]any{"a": 2, "b": 3}); !strings.Contains(r.Text, "5") {
		t.Errorf("get-sum = %+v", r)
	}
	if r := call("get-tiny-image", map[string]any{}); !strings.Contains(r.Text, "[image image/png") {
		t.Errorf("get-tiny-image = %+v", r)
	}
	env := call("get-env", map[string]any{}).Text
	for _, secret := range []string{"sk-model-secret", "gh-secret"} {
		if strings.Contains(env, secret) {
			t.Errorf("the server's environment has %q", secret)
		}
	}
	if !strings.Contains(env, "plain-value") || !strings.Contains(env, "GIVEN_TOKEN") {
		t.Errorf("the server's environment lacks agentls's plain variables or its own env: %.500s", env)
	}
}
