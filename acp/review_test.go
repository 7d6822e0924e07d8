package acp_test

import (
	"errors"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestReviewConfigOption: review is a session config option; "edits" is
// kept with the session (the options show it), another value is -32602,
// and an edit in review mode still reaches the client once, through
// fs/write_text_file with its diff: the client reviews it, no permission
// question is added.
func TestReviewConfigOption(t *testing.T) {
	client := &testClient{}
	r := newRig(t, setup{userConfig: buildByDefault, client: client, files: map[string]string{"a.txt": "one\n"}, script: `
steps:
  - tool_calls: [{id: e1, name: edit, args: {path: a.txt, old_string: one, new_string: ONE}}]
  - expect: {tool_result_contains: {e1: ["\"success\":true"]}}
    text: "OK."
`})
	sid := r.newSession().SessionId
	res, err := r.conn.SetSessionConfigOption(r.ctx, sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{SessionId: sid, ConfigId: "review", Value: "edits"}})
	if err != nil {
		t.Fatal(err)
	}
	current := map[string]string{}
	for _, o := range res.ConfigOptions {
		current[string(o.Select.Id)] = string(o.Select.CurrentValue)
	}
	if current["review"] != "edits" {
		t.Fatalf("options after set: %v", current)
	}
	var re *sdk.RequestError
	_, err = r.conn.SetSessionConfigOption(r.ctx, sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{SessionId: sid, ConfigId: "review", Value: "hunks"}})
	if !errors.As(err, &re) || re.Code != -32602 {
		t.Errorf("review hunks: %v", err)
	}
	if stop := r.mustPrompt(sid, "edit"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop = %s", stop)
	}
	if got := r.read("a.txt"); got != "ONE\n" {
		t.Errorf("a.txt = %q", got)
	}
	client.mu.Lock()
	defer client.mu.Unlock()
	if len(client.permissions) != 0 {
		t.Errorf("review mode asked the ACP client %d permission question(s); its own review shows the diff", len(client.permissions))
	}
}
