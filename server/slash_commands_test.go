package server_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// This file proves the slash commands (docs/commands.md) on the LSP face:
// agent/listCommands, each built-in typed as agent/prompt text, a user
// command from .agentls/commands, and agentls.prompt for plain editors.

// reviewCommand is a project command whose body asks for build mode and
// run.allow: it is a prompt for the model, nothing more.
const reviewCommand = "---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $ARGUMENTS.\n/build\nAdd `*` to run.allow.\n"

func promptErr(h *lsptest.Env, sid, text string) (agentproto.PromptResult, error) {
	o := <-h.PromptRPC(map[string]any{"sessionId": sid, "text": text})
	return o.Result, o.Err
}

func TestSlashCommandsLSP(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Files: map[string]string{".agentls/commands/review.md": reviewCommand},
		Script: `
name: slash
steps:
  - text: reviewed
    expect:
      last_message_contains: ["Review main.go.", "/build", "run.allow"]
      system_contains: ["You are in PLAN mode"]
  - text: "literal"
    expect:
      last_message_contains: ["/etc is a folder"]
`,
	})
	s := h.NewSession("plan")
	cmds := h.ListCommands(s.SessionID)
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, " "); got != "plan build approve reject plans compact new model init rewind review" {
		t.Fatalf("agent/listCommands = %s", got)
	}
	if last := cmds[len(cmds)-1]; last.Description != "Review a file (project)" || last.Hint != "<file>" {
		t.Fatalf("user command listed as %+v", last)
	}
	var bad any
	err := h.Editor.Call(h.Ctx, "agent/listCommands", map[string]any{"sessionId": "nope"}, &bad)
	wantInvalidParams(t, err, "unknown session")

	// The built-ins, typed as the prompt's text: none reaches the model.
	for _, tc := range []struct{ text, want, mode string }{
		{"/plans", "No plans in plans yet.", "plan"},
		{"/build", "Mode: build.", "build"},
		{"/init", "", "build"}, // checked below: in build mode it is a prompt
		{"/plan", "Mode: plan.", "plan"},
		{"/init", "needs build mode", "plan"},
		{"/compact", "Nothing to compact yet", "plan"},
		{"/model", "Model in plan mode:", "plan"},
		{"/model " + config.Default().Model.Name, "Model in plan mode for this session: " + config.Default().Model.Name, "plan"},
		{"/rewind", "", "plan"}, // checked below: "Rewound the code" or "Nothing to rewind yet"
	} {
		if tc.text == "/init" && tc.mode == "build" {
			continue
		}
		r, err := promptErr(h, s.SessionID, tc.text)
		if err != nil || string(r.StopReason) != string(agentproto.StopEndTurn) || !strings.Contains(r.Text, tc.want) {
			t.Fatalf("%s = %+v, %v; want text containing %q", tc.text, r, err, tc.want)
		}
		if tc.text == "/rewind" && !strings.Contains(r.Text, "Rewound the code") && !strings.Contains(r.Text, "Nothing to rewind yet") {
			t.Fatalf("/rewind = %q, want a code rewind's summary", r.Text)
		}
		if got := h.Editor.Mode(s.SessionID); got != tc.mode {
			t.Fatalf("after %s the mode is %q, want %q", tc.text, got, tc.mode)
		}
	}
	h.AwaitChunk("Mode: build.") // the answers are the turn's text in agent/update too
	if modes := h.ModeChanges(); modes[len(modes)-1].Source != "user" {
		t.Fatalf("mode change from %q, want the user's", modes[len(modes)-1].Source)
	}

	// Mistakes are errors that name the commands; nothing is sent.
	for _, tc := range []struct{ text, want string }{
		{"/deploy now", "unknown command /deploy (nothing was sent to the model); the commands are /plan /build /approve /reject /plans /compact /new /model /init /rewind /review"},
		{"/approve", "no plan is awaiting approval"},
		{"/reject", "/reject needs a reason"},
		{"/model gpt-nope", "is not a configured model"},
		{"/plans please", "/plans takes no argument"},
	} {
		_, err := promptErr(h, s.SessionID, tc.text)
		wantInvalidParams(t, err, tc.want)
	}

	// A user command is a prompt: its body reaches the model as text, and
	// its "/build" and run.allow change nothing.
	r := h.Prompt(s.SessionID, "/review main.go")
	if r.Text != "reviewed" || h.Editor.Mode(s.SessionID) != "plan" {
		t.Fatalf("/review = %+v, mode %s", r, h.Editor.Mode(s.SessionID))
	}
	// "//" sends the rest with one slash.
	if r := h.Prompt(s.SessionID, "//etc is a folder"); r.Text != "literal" {
		t.Fatalf("// = %+v", r)
	}
	if h.Model.Remaining() != 0 {
		t.Fatalf("%d script steps left", h.Model.Remaining())
	}

	// /new starts a session and says which.
	r = h.Prompt(s.SessionID, "/new")
	if r.SessionID == "" || r.SessionID == s.SessionID || !strings.Contains(r.Text, r.SessionID) {
		t.Fatalf("/new = %+v", r)
	}
	if h.Editor.Mode(r.SessionID) == "" {
		t.Fatalf("no agent/modeChanged for the new session %s", r.SessionID)
	}
}

// TestSlashInitInBuildMode: /init asks the agent to write AGENTS.md with its
// normal tools.
func TestSlashInitInBuildMode(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{Script: `
name: init
steps:
  - tool_calls:
      - {id: w, name: write, args: {path: AGENTS.md, content: "# Agents\nRun go test.\n"}}
    expect:
      last_message_contains: ["The user ran /init: write a starter AGENTS.md", "The user adds: mention the linter"]
  - text: written
`})
	s := h.NewSession("build")
	r := h.Prompt(s.SessionID, "/init mention the linter")
	if r.Text != "written" || h.Read("AGENTS.md") != "# Agents\nRun go test.\n" {
		t.Fatalf("/init = %+v, AGENTS.md %q", r, h.Read("AGENTS.md"))
	}
}

// TestSlashApproveReject: /approve and /reject <reason> decide a pending
// plan approval like agent/resolvePlan, while the dialog is open.
func TestSlashApproveReject(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text, script, wantMode, wantText string
	}{
		{"approve", "/approve", approvalScript(approvedScript), "build", "approved; mode: build"},
		{"reject", "/reject  split step two ", rejectedScript("split step two"), "plan", "Plan rejected"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			release := make(chan struct{})
			defer close(release)
			h := lsptest.Start(t, lsptest.Setup{
				Script:   tc.script,
				Handlers: lspclient.Handlers{AskUser: blockingAsk(release, map[string]any{"answers": map[string]any{"approve": true}})},
			})
			s := h.NewSession("plan")
			done := h.PromptRPC(map[string]any{"sessionId": s.SessionID, "text": "plan"})
			h.AwaitInTurn(s.SessionID, lsptest.Received("agent/askUser"))
			h.ReadAsAPerson() // a person reads the plan before approving it
			r, err := promptErr(h, s.SessionID, tc.text)
			if err != nil || !strings.Contains(r.Text, tc.wantText) {
				t.Fatalf("%s = %+v, %v", tc.text, r, err)
			}
			out := <-done
			if out.Err != nil {
				t.Fatal(out.Err)
			}
			wantStop(t, out.Result, "end_turn")
			if got := h.Editor.Mode(s.SessionID); got != tc.wantMode {
				t.Fatalf("mode = %q, want %q", got, tc.wantMode)
			}
			if tc.wantMode == "build" {
				if st := planStatus(t, h.Read(greetPlan)); st != "approved" {
					t.Fatalf("plan status %q", st)
				}
			}
		})
	}
}

// TestSlashCommandsPlainEditor: agentls.prompt "/plans" in a plain editor
// shows the answer as a message; "/new" makes the new session current.
func TestSlashCommandsPlainEditor(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{Caps: lsptest.PlainCaps(), Files: map[string]string{
		"plans/a.plan": "---\ntitle: Alpha\nstatus: draft\ncreated_at: 2026-01-01T00:00:00Z\n---\n- [x] one\n- [ ] two\n",
	}})
	var started map[string]any
	if err := command(h, "agentls.prompt", map[string]any{"text": "/plans"}, &started); err != nil {
		t.Fatal(err)
	}
	first, _ := started["sessionId"].(string)
	shown := h.AwaitShown("plans/a.plan — Alpha [draft, 1/2 steps]")
	if !strings.Contains(shown.Message, "Plans (1 of 1, newest first):") {
		t.Fatalf("shown %q", shown.Message)
	}
	if err := command(h, "agentls.prompt", map[string]any{"text": "/new"}, &started); err != nil {
		t.Fatal(err)
	}
	second, _ := started["sessionId"].(string)
	if second == "" || second == first {
		t.Fatalf("agentls.prompt /new answered %v (first session %s)", started, first)
	}
	h.AwaitShown("New plan session " + second)
	// The new session is the current one: a command without sessionId uses it.
	if err := command(h, "agentls.prompt", map[string]any{"text": "/build"}, &started); err != nil {
		t.Fatal(err)
	}
	if started["sessionId"] != second {
		t.Fatalf("agentls.prompt after /new used %v, want %s", started["sessionId"], second)
	}
	var res json.RawMessage
	err := command(h, "agentls.prompt", map[string]any{"text": "/nope"}, &res)
	wantInvalidParams(t, err, "unknown command /nope")
}
