package acp_test

import (
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestClientFSNotUTF8: a client that reads and writes files for agentls
// (fs/read_text_file, fs/write_text_file) carries text as JSON, where a
// Latin-1 file's odd bytes are U+FFFD. An edit of one line of such a file
// changes only the bytes it replaces: agentls computes it on the disk's
// bytes and writes it on disk, whichever the client's text.
func TestClientFSNotUTF8(t *testing.T) {
	t.Parallel()
	const before = "caf\xE9 = 1;\r\nalpha\r\nna\xEFve\r\n"
	script := `
steps:
  - tool_calls: [{id: e1, name: edit, args: {path: app.txt, old_string: alpha, new_string: ALPHA}}]
  - expect: {tool_result_contains: {e1: ['"success":true']}}
    text: "Done."
`
	caps := sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}}
	r := newRig(t, setup{userConfig: buildByDefault, script: script, client: &testClient{}, caps: caps,
		files: map[string]string{"app.txt": before}})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "shout"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s", stop)
	}
	if got, want := r.read("app.txt"), "caf\xE9 = 1;\r\nALPHA\r\nna\xEFve\r\n"; got != want {
		t.Errorf("app.txt on disk\n got %q\nwant %q", got, want)
	}
}
