package tools

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/sandbox"
)

// TestMCPCacheOutOfRunsReach: an MCP server (which may hold a token and
// the network) keeps its caches (npx's npm cache, uvx's, Go's) where no
// run command can write: were they shared, a command that runs the
// project's code, with no network, could plant a package there that the
// next `npx -y <server>` runs with the server's network and token.
func TestMCPCacheOutOfRunsReach(t *testing.T) {
	if st := sandbox.Detect().Status(sandbox.ModeAuto); !st.Confines() {
		t.Skipf("no sandbox layer here: %s", st.Summary)
	}
	env := newFake(t, nil)
	run := runPolicy(env, "make", false)
	mcp := MCPPolicy(config.Default(), env.ws.Folders(), true)
	if mcp.CacheDir == "" || mcp.CacheDir == run.CacheDir || !mcp.Network {
		t.Fatalf("MCP policy %+v, run's cache %s", mcp, run.CacheDir)
	}
	target := filepath.Join(mcp.CacheDir, "npm", "poison")
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	var got RunOutput
	value(t, call(t, runTool, env, `{"command":"echo x > `+target+`"}`), &got)
	if _, err := os.Stat(target); err == nil {
		t.Fatalf("a run command wrote the MCP servers' cache: %+v", got)
	}
}
