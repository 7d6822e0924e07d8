package server_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/internal/lspclient"

	"github.com/agentls/agentls/server/internal/lsptest"
)

// TestMCPStatusInCheckModel: agent/checkModel reports each MCP server:
// idle before the first tool listing; then running (with its tools),
// failed (a command that does not exist; a server that exited, with the
// tail of its stderr) and skipped (a workspace .mcp.json whose content the
// user has not trusted is not started, and says so).
func TestMCPStatusInCheckModel(t *testing.T) {
	t.Parallel()
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
				"evil":   map[string]any{"command": bin, "network": false}, // its die runs in plan mode: no network
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
	if st["evil"]["state"] != "failed" || !strings.Contains(fmt.Sprint(st["evil"]["stderrTail"]), "dying on purpose") || st["evil"]["tools"] != float64(8) ||
		st["evil"]["definitionBytes"].(float64) < 500 {
		t.Errorf("evil after it exited: %v", st["evil"])
	}
	if _, err := os.Stat(filepath.Join(h.Dir, "pwned")); err == nil || st["repo"]["state"] != "skipped" {
		t.Errorf("the untrusted .mcp.json's server ran: %v", st["repo"])
	}
}

// TestMCPFileTrust: a workspace .mcp.json is asked about (the trust
// question lists the command line in full, the env variables' names and
// network), and once trusted its server starts and its tools run.
func TestMCPFileTrust(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "hostile")
	if out, err := exec.Command("go", "build", "-o", bin, "../mcpclient/testdata/hostile").CombinedOutput(); err != nil {
		t.Fatalf("build the hostile server: %v\n%s", err, out)
	}
	callLog := filepath.Join(t.TempDir(), "calls.log")
	mcpJSON, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"repo": map[string]any{"command": bin, "args": []string{"--flag", "${workspaceFolder}"}, "env": map[string]string{"HOSTILE_LOG": callLog}},
	}})
	var mu sync.Mutex
	var questionsAsked []string
	h := lsptest.Start(t, lsptest.Setup{
		Script: `
steps:
  - tool_calls:
      - {id: e, name: mcp__repo__echo, args: {path: "x", content: "from the repo server"}}
  - text: "Done."
`,
		Files: map[string]string{".mcp.json": string(mcpJSON)},
		InitOpts: map[string]any{"mcp": map[string]any{"read_only": []any{"repo/echo"}},
			// A trusted file's server has the network: its tools run in plan
			// mode only when listed (docs/guard.md).
			"plan_mode": map[string]any{"allow_network_tools": []any{"mcp__repo__echo"}},
			"sandbox":   map[string]any{"allow_write": []any{filepath.Dir(callLog)}}}, // the server writes its log there
		Handlers: lspclient.Handlers{AskUser: func(params json.RawMessage) any {
			var p struct {
				Purpose   string `json:"purpose"`
				Questions []struct {
					Question string `json:"question"`
				} `json:"questions"`
			}
			_ = json.Unmarshal(params, &p)
			if p.Purpose == "permission" && len(p.Questions) == 1 && strings.Contains(p.Questions[0].Question, ".mcp.json") {
				mu.Lock()
				questionsAsked = append(questionsAsked, p.Questions[0].Question)
				mu.Unlock()
				return map[string]any{"answers": map[string]any{"decision": "allow_always"}}
			}
			return map[string]any{"dismissed": true}
		}},
	})
	h.AwaitShown("you trusted")
	mu.Lock()
	q := strings.Join(questionsAsked, "\n")
	mu.Unlock()
	for _, want := range []string{".mcp.json", bin + " --flag " + h.Dir, "HOSTILE_LOG", "network: yes"} {
		if !strings.Contains(q, want) {
			t.Errorf("trust question lacks %q:\n%s", want, q)
		}
	}
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "go"), "end_turn")
	calls, _ := os.ReadFile(callLog)
	if !strings.Contains(string(calls), "echo from the repo server") {
		status, out := h.ToolOutput("e")
		t.Errorf("the trusted file's server did not run the call: %q (the tool call: %s %v)", calls, status, out)
	}
}
