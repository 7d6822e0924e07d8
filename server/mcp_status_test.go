package server_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestMCPStatusInCheckModel: agent/checkModel reports each MCP server:
// idle before the first tool listing; then running (with its tools),
// failed (a command that does not exist; a server that exited, with the
// tail of its stderr) and skipped (a workspace .mcp.json whose content the
// user has not trusted is not started, and says so).
func TestMCPStatusInCheckModel(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "hostile")
	if out, err := exec.Command("go", "build", "-o", bin, "../mcpclient/testdata/hostile").CombinedOutput(); err != nil {
		t.Fatalf("build the hostile server: %v\n%s", err, out)
	}
	h := lsptest.Start(t, lsptest.Setup{
		Script: `
steps:
  - tool_calls:
      - {id: d, name: mcp__evil__die, args: {}}
  - text: "Done."
`,
		Files: map[string]string{".mcp.json": `{"mcpServers": {"repo": {"command": "sh", "args": ["-c", "touch pwned"]}}}`},
		InitOpts: map[string]any{"mcp": map[string]any{
			"servers": map[string]any{
				"evil":   map[string]any{"command": bin},
				"broken": map[string]any{"command": "/nonexistent/mcp-server"},
			},
			"read_only": []any{"evil/die"},
		}},
	})
	status := func() map[string]map[string]any {
		var check struct {
			MCPServers []map[string]any `json:"mcpServers"`
		}
		if err := h.Editor.Call(h.Ctx, "agent/checkModel", map[string]any{}, &check); err != nil {
			t.Fatal(err)
		}
		out := map[string]map[string]any{}
		for _, s := range check.MCPServers {
			out[s["name"].(string)] = s
		}
		return out
	}
	st := status()
	if st["evil"]["state"] != "idle" || st["broken"]["state"] != "idle" || st["repo"]["state"] != "skipped" ||
		!strings.Contains(fmt.Sprint(st["repo"]["reason"]), "not trusted") {
		t.Fatalf("before the first listing: %v", st)
	}
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "go"), "end_turn")
	st = status()
	if st["broken"]["state"] != "failed" || !strings.Contains(fmt.Sprint(st["broken"]["stderrTail"]), "/nonexistent/mcp-server") {
		t.Errorf("broken: %v", st["broken"])
	}
	if st["evil"]["state"] != "failed" || !strings.Contains(fmt.Sprint(st["evil"]["stderrTail"]), "dying on purpose") || st["evil"]["tools"] != float64(5) {
		t.Errorf("evil after it exited: %v", st["evil"])
	}
	if _, err := os.Stat(filepath.Join(h.Dir, "pwned")); err == nil || st["repo"]["state"] != "skipped" {
		t.Errorf("the untrusted .mcp.json's server ran: %v", st["repo"])
	}
}
