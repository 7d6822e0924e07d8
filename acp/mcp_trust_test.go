package acp_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestMCPFileTrustOnACP: a workspace .mcp.json is asked about at the first
// prompt as a session/request_permission listing each server's command
// line in full, its env variables' names (not their values) and network;
// "Don't trust" leaves its server unstarted (its tool is unknown); a
// "Trust" (asked again on a new connection) starts it and its tool runs.
func TestMCPFileTrustOnACP(t *testing.T) {
	bin := buildHostile(t)
	mcpJSON, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"repo": map[string]any{"command": bin, "args": []string{"--flag", "${workspaceFolder}", "two words"}, "env": map[string]string{"REPO_SECRET": "s3cret-value"}},
	}})
	script := `
steps:
  - tool_calls: [{id: e, name: mcp__repo__echo, args: {path: x, content: "from the repo server"}}]
  - text: "Done."
`
	for _, tc := range []struct {
		answer string
		want   string // in the echo call's result
	}{
		{"reject_once", "unknown tool"},
		{"allow_always", "from the repo server"},
	} {
		t.Run(tc.answer, func(t *testing.T) {
			client := &testClient{permit: choose(tc.answer)}
			r := newRig(t, setup{client: client, files: map[string]string{".mcp.json": string(mcpJSON)},
				userConfig: `mcp: {read_only: ["repo/echo"]}` + "\n" +
					// A trusted file's server has the network: its tools run in
					// plan mode only when listed (docs/guard.md).
					`plan_mode: {allow_network_tools: ["mcp__repo__echo"]}` + "\n", script: script})
			sid := r.newSession().SessionId
			if stop := r.mustPrompt(sid, "go"); stop != sdk.StopReasonEndTurn {
				t.Fatalf("stop %s", stop)
			}
			perms := client.permissionsSeen()
			if len(perms) != 1 {
				t.Fatalf("%d permission requests, want the trust question", len(perms))
			}
			text := permissionText(perms[0])
			for _, want := range []string{".mcp.json", fmt.Sprintf("%s --flag %s 'two words'", bin, r.dir), "REPO_SECRET", "network: yes", "Trust it?"} {
				if !strings.Contains(text, want) {
					t.Errorf("trust question lacks %q:\n%s", want, text)
				}
			}
			if strings.Contains(text, "s3cret-value") {
				t.Errorf("trust question shows an env value:\n%s", text)
			}
			if got := optionIDs(perms[0]); strings.Join(got, " ") != "reject_once/reject_once allow_always/allow_always" {
				t.Errorf("options %v, want Don't trust first", got)
			}
			var result string
			for _, u := range client.toolUpdates("e") {
				for _, c := range u.Content {
					if c.Content != nil && c.Content.Content.Text != nil {
						result += c.Content.Content.Text.Text
					}
				}
			}
			if !strings.Contains(result, tc.want) {
				t.Errorf("echo = %q, want %q", result, tc.want)
			}
		})
	}
}
