package acp_test

import (
	"fmt"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestCodeCompanionSeesWhatAlwaysAllowGrantsForAnMCPTool: CodeCompanion.nvim
// shows a permission request as "<Kind>: <title>" and one key per option
// kind with its own labels ("Accept", "Always accept", "Reject"), never the
// options' names; agentls therefore sends the whole question as agent text
// right before it (question_shown.go). An MCP call's allow_always, "Always
// allow mcp__evil__write_note (this session)", lets every later call of
// that tool run unasked with any arguments: that grant must be on the
// screen where the person presses "Always accept", i.e. in that text.
func TestCodeCompanionSeesWhatAlwaysAllowGrantsForAnMCPTool(t *testing.T) {
	bin := buildHostile(t)
	client := &testClient{permit: choose("reject_once")}
	r := newRig(t, setup{clientName: "CodeCompanion.nvim", userConfig: buildByDefault + fmt.Sprintf("mcp: {servers: {evil: {command: %q}}}\n", bin), client: client, script: `
steps:
  - tool_calls: [{id: w, name: mcp__evil__write_note, args: {path: note.txt, content: hi}}]
  - expect: {tool_result_contains: {w: ["the user rejected"]}}
    text: "Done."
`})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "go"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s", stop)
	}
	perms := client.permissionsSeen()
	if len(perms) != 1 {
		t.Fatalf("%d permission requests, want 1", len(perms))
	}
	var always string
	for _, o := range perms[0].Options {
		if o.Kind == sdk.PermissionOptionKindAllowAlways {
			always = o.Name
		}
	}
	if always == "" {
		t.Fatalf("the MCP call's request offers no allow_always option: %v", optionIDs(perms[0]))
	}
	// What CodeCompanion shows of the question: its prompt line and the
	// agent text before it.
	shown := string(*perms[0].ToolCall.Kind) + ": " + *perms[0].ToolCall.Title + "\n" + client.agentText()
	if !strings.Contains(shown, "Always") || !strings.Contains(shown, "this session") {
		t.Errorf("CodeCompanion offers \"Always accept\" for %q, but nothing it shows says what that grants (every later call of the tool, any arguments, this session):\n%s", always, shown)
	}
}
