package acp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestAutoRunEditAskedOnACP: review mode off, the builder's write of
// .vscode/tasks.json is asked with session/request_permission (an ACP
// client's own review writes first, so it cannot stand in for the
// question): its title names the file and why, its content shows the diff.
// Reject writes nothing and the model reads why; a cancelled request ends
// the turn (ACP's cancel) and writes nothing; Apply writes it.
func TestAutoRunEditAskedOnACP(t *testing.T) {
	for _, tc := range []struct {
		name   string
		choose string // "": the client cancels the request
		told   string
		stop   sdk.StopReason
	}{
		{"reject", "reject_once", "rejected when asked", sdk.StopReasonEndTurn},
		{"cancelled", "", "", sdk.StopReasonCancelled},
		{"apply", "allow_once", `"success":true`, sdk.StopReasonEndTurn},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client := &testClient{}
			if tc.choose != "" {
				client.permit = choose(tc.choose)
			}
			then := "  - text: \"OK.\"\n"
			if tc.told != "" {
				then = "  - expect: {tool_result_contains: {w: ['" + tc.told + "', '.vscode/tasks.json is a file the user''s editor or shell runs by itself']}}\n    text: \"OK.\"\n"
			}
			if tc.choose == "allow_once" {
				then = "  - expect: {tool_result_contains: {w: ['" + tc.told + "']}}\n    text: \"OK.\"\n"
			}
			r := newRig(t, setup{userConfig: buildByDefault, client: client, script: `
steps:
  - tool_calls: [{id: w, name: write, args: {path: .vscode/tasks.json, content: "{\"tasks\":[{\"runOptions\":{\"runOn\":\"folderOpen\"}}]}"}}]
` + then})
			sid := r.newSession().SessionId
			if stop := r.mustPrompt(sid, "go"); stop != tc.stop {
				t.Fatalf("stop = %s", stop)
			}
			_, err := os.Stat(filepath.Join(r.dir, ".vscode", "tasks.json"))
			if written := err == nil; written != (tc.choose == "allow_once") {
				t.Fatalf("tasks.json written = %v after %s", written, tc.name)
			}
			client.mu.Lock()
			defer client.mu.Unlock()
			if len(client.permissions) != 1 {
				t.Fatalf("%d permission requests, want 1", len(client.permissions))
			}
			p := client.permissions[0].ToolCall
			const title = "Apply the edit: create `.vscode/tasks.json` — your editor or shell runs what it names by itself, outside agentls's sandbox"
			if p.Title == nil || *p.Title != title {
				t.Errorf("title = %v, want %q", p.Title, title)
			}
			if len(p.Content) == 0 || p.Content[0].Content == nil || p.Content[0].Content.Content.Text == nil ||
				!strings.Contains(p.Content[0].Content.Content.Text.Text, "+{\"tasks\":") {
				t.Errorf("content = %+v, want the diff", p.Content)
			}
			if tc.choose != "allow_once" && len(client.writes) != 0 {
				t.Errorf("the client was sent %d writes after %s", len(client.writes), tc.name)
			}
		})
	}
}
