package acp_test

import (
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/sandbox"
)

// permissionText is every text block of a permission request's tool call.
func permissionText(p sdk.RequestPermissionRequest) string {
	var b strings.Builder
	if p.ToolCall.Title != nil {
		b.WriteString(*p.ToolCall.Title + "\n")
	}
	for _, c := range p.ToolCall.Content {
		if c.Content != nil && c.Content.Content.Text != nil {
			b.WriteString(c.Content.Content.Text.Text + "\n")
		}
	}
	return b.String()
}

// TestApprovalRequestShowsGrants: the plan approval's request_permission
// lists every command approving grants (a text block beside the plan),
// with option ids equal to their kinds.
func TestApprovalRequestShowsGrants(t *testing.T) {
	t.Parallel()
	client := &testClient{permit: choose("allow_once")}
	r := newRig(t, setup{client: client, script: `
steps:
  - tool_calls: [{id: w, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: "# Goal\nSay hi.\n\n## Steps\n- [ ] Write hi.txt\n"}}]
  - tool_calls: [{id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan, allowed_commands: ["go test ./...", "git diff *"]}}]
  - expect: {tool_result_contains: {x: ['"approved":true']}}
    text: "Done."
`})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "plan"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s", stop)
	}
	perms := client.permissionsSeen()
	if len(perms) != 1 {
		t.Fatalf("%d permission requests, want 1", len(perms))
	}
	text := permissionText(perms[0])
	if !strings.Contains(text, "Approving also allows these commands for this session:\n- `go test ./...`\n- `git diff *`") || !strings.Contains(text, "Say hi.") {
		t.Fatalf("approval request does not show the plan and its grants:\n%s", text)
	}
	if got := optionIDs(perms[0]); strings.Join(got, " ") != "reject_once/reject_once allow_once/allow_once" {
		t.Fatalf("options %v", got)
	}
}

// TestRunRequestShowsFolderAndEscapes: the run request names the command,
// its folder, network and sandbox, with control and bidi characters
// escaped in the title and content.
func TestRunRequestShowsFolderAndEscapes(t *testing.T) {
	t.Parallel()
	client := &testClient{permit: choose("reject_once")}
	r := newRig(t, setup{userConfig: buildByDefault, client: client, script: `
steps:
  - tool_calls: [{id: r1, name: run, args: {command: "echo \u202Eevil", cwd: sub}}]
  - expect: {tool_result_contains: {r1: ["rejected"]}}
    text: "Done."
`, files: map[string]string{"sub/keep.txt": "x"}})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "run"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s", stop)
	}
	perms := client.permissionsSeen()
	if len(perms) != 1 {
		t.Fatalf("%d permission requests, want 1", len(perms))
	}
	text := permissionText(perms[0])
	network, sandboxState := agent.RunPlace(sandbox.Detect().Status(sandbox.Mode("auto")), nil, "echo \u202Eevil")
	for _, want := range []string{"echo \\u202Eevil", "Folder: " + r.dir + "/sub", "Network: " + network, "Sandbox: " + sandboxState} {
		if !strings.Contains(text, want) {
			t.Errorf("run request lacks %q:\n%s", want, text)
		}
	}
	if strings.ContainsRune(text, '\u202E') {
		t.Errorf("run request holds a raw RLO:\n%s", text)
	}
}
