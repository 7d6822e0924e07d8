package acp_test

import (
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// TestApprovalShownAsAgentText: CodeCompanion.nvim shows a permission
// request as its kind and title only, avante.nvim as its title: the plan
// approval also goes out as the agent's own text, before
// session/request_permission, holding the plan's text (in a fence the plan
// cannot close) and every command approving grants, escaped.
func TestApprovalShownAsAgentText(t *testing.T) {
	const plan = "# Goal\\nShout.\\n\\n````\\nfence inside\\n````\\n\\n## Steps\\n- [ ] Replace alpha with ALPHA in app.txt\\n"
	r, _ := rejectedPlanApproval(t, "", plan, `, allowed_commands: ["go test ./...", "git diff *", "echo \u202eevil"]`)
	atAsk := textBeforeAsk(t, r.wire)
	for _, want := range []string{
		"The plan `plans/shout.plan` asks for your approval",
		"`````markdown\n", // longer than the plan's own four-backtick fence
		"Replace alpha with ALPHA in app.txt\n`````\n",
		"Approving also allows these commands for this session:\n- `go test ./...`\n- `git diff *`\n- `echo \\u202Eevil`",
	} {
		if !strings.Contains(atAsk, want) {
			t.Errorf("the agent's text when the approval was asked lacks %q:\n%s", want, atAsk)
		}
	}
	if strings.Contains(atAsk, "\u202e") {
		t.Errorf("a bidi override reached the agent's text raw:\n%q", atAsk)
	}
	// The message is agentls's own: it does not run on into the model's text.
	if strings.Contains(atAsk, "Still planning.") {
		t.Errorf("the model's later text was there before the approval: %q", atAsk)
	}
}

// TestRunQuestionShownAsAgentText: the run question goes out as the
// agent's own text too, whole (command, folder, network, sandbox), before
// its session/request_permission, so a client that shows a request's title
// only still shows everything the answer grants.
func TestRunQuestionShownAsAgentText(t *testing.T) {
	client := &testClient{permit: choose("reject_once")}
	r := newRig(t, setup{
		client:     client,
		userConfig: buildByDefault,
		script: `name: run-shown
steps:
  - tool_calls:
      - {id: r1, name: run, args: {command: "touch made-\u202eit"}}
  - text: "Not run."
`,
	})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "run it"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop reason %s", stop)
	}
	atAsk := textBeforeAsk(t, r.wire)
	for _, want := range []string{"Run `touch made-\\u202Eit`?", "Folder: " + r.dir, "Network: ", "Sandbox: "} {
		if !strings.Contains(atAsk, want) {
			t.Errorf("the agent's text when the run was asked lacks %q:\n%s", want, atAsk)
		}
	}
	if strings.Contains(atAsk, "\u202e") {
		t.Errorf("a bidi override reached the agent's text raw: %q", atAsk)
	}
}

// rejectedPlanApproval runs a turn, as the client clientName ("" for the
// rig's default), in which the model writes plans/shout.plan holding plan
// (the text of a YAML double-quoted string) and asks its approval with
// exit_plan_mode, exitArgs added to its arguments; the client rejects it
// and the turn must end end_turn. It returns the rig and its client.
func rejectedPlanApproval(t *testing.T, clientName, plan, exitArgs string) (*rig, *testClient) {
	t.Helper()
	client := &testClient{permit: choose("reject_once")}
	r := newRig(t, setup{clientName: clientName, files: map[string]string{"app.txt": "alpha\n"}, client: client, script: `name: shown
steps:
  - tool_calls:
      - {id: p1, name: plan_write, args: {title: Shout, path: plans/shout.plan, content: "` + plan + `"}}
  - tool_calls:
      - {id: x1, name: exit_plan_mode, args: {plan_file_path: plans/shout.plan` + exitArgs + `}}
  - text: "Still planning."
`})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "shout"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop reason %s", stop)
	}
	return r, client
}

// textBeforeAsk is the agent_message_chunk text agentls wrote before its
// first session/request_permission, in wire order (the SDK's client may
// hand a notification to its handler after a request that followed it).
func textBeforeAsk(t *testing.T, w *tap) string {
	t.Helper()
	var b strings.Builder
	for _, m := range w.all() {
		if m["method"] == "session/request_permission" {
			return b.String()
		}
		p, _ := m["params"].(map[string]any)
		u, _ := p["update"].(map[string]any)
		if m["method"] == "session/update" && u["sessionUpdate"] == "agent_message_chunk" {
			c, _ := u["content"].(map[string]any)
			s, _ := c["text"].(string)
			b.WriteString(s)
		}
	}
	t.Fatal("agentls sent no session/request_permission")
	return ""
}

// TestQuestionNotRepeatedForContentShowingClients: agent-shell and Zed show
// a permission request's content in full: the approval is not repeated as
// agent text before it (agent-shell, which draws the request in its input
// area, lost its prompt to that text).
func TestQuestionNotRepeatedForContentShowingClients(t *testing.T) {
	for _, name := range []string{"agent-shell", "zed"} {
		t.Run(name, func(t *testing.T) {
			r, client := rejectedPlanApproval(t, name, `# Goal\\nShout.\\n\\n## Steps\\n- [ ] Shout\\n`, "")
			if atAsk := textBeforeAsk(t, r.wire); strings.Contains(atAsk, "asks for your approval") {
				t.Errorf("the approval was repeated as agent text for %s:\n%s", name, atAsk)
			}
			if len(client.permissionsSeen()) != 1 {
				t.Errorf("%d permission requests, want 1", len(client.permissionsSeen()))
			}
		})
	}
}

// TestCodeCompanionSeesWhatAlwaysAllowGrantsForAnMCPTool: CodeCompanion.nvim
// shows a permission request as "<Kind>: <title>" and one key per option
// kind with its own labels ("Accept", "Always accept", "Reject"), never the
// options' names; agentls therefore sends the whole question as agent text
// right before it (question_shown.go). An MCP call's allow_always, "Always
// allow mcp__evil__write_note (this session)", lets every later call of
// that tool run unasked with any arguments: that grant must be on the
// screen where the person presses "Always accept", i.e. in that text.
func TestCodeCompanionSeesWhatAlwaysAllowGrantsForAnMCPTool(t *testing.T) {
	client, perm := rejectedMCPWrite(t, "CodeCompanion.nvim")
	var always string
	for _, o := range perm.Options {
		if o.Kind == sdk.PermissionOptionKindAllowAlways {
			always = o.Name
		}
	}
	if always == "" {
		t.Fatalf("the MCP call's request offers no allow_always option: %v", optionIDs(perm))
	}
	// What CodeCompanion shows of the question: its prompt line and the
	// agent text before it.
	shown := string(*perm.ToolCall.Kind) + ": " + *perm.ToolCall.Title + "\n" + client.agentText()
	if !strings.Contains(shown, "- "+always+": every later call of the tool `write_note` of this server, with any arguments, runs without a question for the rest of this session") {
		t.Errorf("CodeCompanion offers \"Always accept\" for %q, but nothing it shows says what that grants (every later call of the tool, any arguments, this session):\n%s", always, shown)
	}
}
