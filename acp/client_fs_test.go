package acp_test

import (
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestClientFSOff: with acp.client_fs: off, a v1 client that offers
// fs/read_text_file and fs/write_text_file gets neither: agentls reads and
// writes the disk through its guarded path and reports the change as a
// diff; with auto the same edit goes through the client.
func TestClientFSOff(t *testing.T) {
	t.Parallel()
	script := `
steps:
  - tool_calls: [{id: e1, name: edit, args: {path: app.txt, old_string: alpha, new_string: ALPHA}}]
  - expect: {tool_result_contains: {e1: ['"success":true']}}
    text: "Done."
`
	caps := sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}}
	for _, c := range []struct {
		setting       string
		clientFSCalls bool
	}{
		{"off", false},
		{"auto", true},
	} {
		t.Run(c.setting, func(t *testing.T) {
			client := &testClient{keepWrites: true}
			r := newRig(t, setup{userConfig: buildByDefault + "acp: {client_fs: " + c.setting + "}\n", script: script, client: client, caps: caps,
				files: map[string]string{"app.txt": "alpha\n"}})
			sid := r.newSession().SessionId
			if stop := r.mustPrompt(sid, "shout"); stop != sdk.StopReasonEndTurn {
				t.Fatalf("stop %s", stop)
			}
			calls := len(r.wire.requests("fs/write_text_file")) + len(r.wire.requests("fs/read_text_file"))
			if (calls > 0) != c.clientFSCalls {
				t.Errorf("%d fs/* requests to the client; want some: %v", calls, c.clientFSCalls)
			}
			if !c.clientFSCalls {
				if got := r.read("app.txt"); got != "ALPHA\n" {
					t.Errorf("app.txt on disk = %q, want ALPHA", got)
				}
			}
			diff := false
			for _, u := range client.toolUpdates("e1") {
				for _, ct := range u.Content {
					if ct.Diff != nil && ct.Diff.NewText == "ALPHA\n" && ct.Diff.OldText != nil && *ct.Diff.OldText == "alpha\n" {
						diff = true
					}
				}
			}
			if !diff {
				t.Error("the edit's tool call carries no diff")
			}
		})
	}
}
