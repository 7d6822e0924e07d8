package acp_test

import (
	"errors"
	"strings"
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

// TestPlanCommentsOnACP: exit_plan_mode with an open review comment fails
// for the model (the comments are its to answer); once both are resolved,
// the approval's request_permission says how many were.
func TestPlanCommentsOnACP(t *testing.T) {
	client := &testClient{permit: choose("allow_once")}
	r := newRig(t, setup{client: client, script: `
steps:
  - tool_calls:
      - {id: w, name: plan_write, args: {title: G, path: plans/g.plan, content: "# Goal\nG.\n\n## Steps\n- [ ] One\n> review: say which file\n- [ ] Two\n"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/g.plan}}
  - expect: {tool_result_contains: {x: ['"success":false', "1 open review comment(s)", "say which file"]}}
    tool_calls:
      - {id: w2, name: plan_write, args: {title: G, path: plans/g.plan, content: "# Goal\nG.\n\n## Steps\n- [ ] One in a.go\n> resolved: a.go\n- [ ] Two\n> resolved: also a.go\n"}}
  - tool_calls:
      - {id: x2, name: exit_plan_mode, args: {plan_file_path: plans/g.plan}}
  - expect: {tool_result_contains: {x2: ['"approved":true']}}
    text: "Approved."
`})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "plan"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop = %s", stop)
	}
	client.mu.Lock()
	defer client.mu.Unlock()
	if len(client.permissions) != 1 {
		t.Fatalf("%d permission requests, want the one approval", len(client.permissions))
	}
	if text := permissionText(client.permissions[0]); !strings.Contains(text, "2 review comments were resolved.") {
		t.Fatalf("the approval does not count the resolved comments:\n%s", text)
	}
}
