package config

import (
	"slices"
	"testing"
)

// TestMCPKeysNeedTrust: every mcp.* key of a workspace file waits for the
// user's trust, even a shorter call timeout (a server that starts is a
// widening, whatever the timeout).
func TestMCPKeysNeedTrust(t *testing.T) {
	yaml := []byte(`mcp:
  servers:
    fs:
      command: npx
      args: ["-y", "@modelcontextprotocol/server-filesystem", "."]
      env: {TOKEN: x}
  read_only: ["fs/*"]
  trust_hints: ["fs"]
  call_timeout_secs: 5
`)
	layer, diags := ParseLayer(".agentls.yaml", yaml)
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	narrow, widening := SplitTrust(layer, Default())
	for _, k := range []string{"mcp.servers.fs.command", "mcp.servers.fs.args", "mcp.servers.fs.env.TOKEN", "mcp.read_only", "mcp.trust_hints", "mcp.call_timeout_secs"} {
		if !slices.Contains(widening, k) {
			t.Errorf("%s applies before trust; widening = %q", k, widening)
		}
	}
	if _, ok := narrow.Data["mcp"]; ok {
		t.Errorf("an untrusted file's mcp keys apply: %v", narrow.Data)
	}
	cfg, err := Resolve(layer)
	if err != nil {
		t.Fatal(err)
	}
	if s := cfg.MCP.Servers["fs"]; s.Command != "npx" || len(s.Args) != 3 || s.Env["TOKEN"] != "x" || cfg.MCP.CallTimeoutSecs != 5 {
		t.Errorf("trusted mcp config = %+v", cfg.MCP)
	}
}
