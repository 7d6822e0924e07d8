package acp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/acp/internal/acptest"
)

const buildByDefault = "plan_mode: {default_active: false}\n"

// permissionsOf returns the permission requests the client got.
func (c *testClient) permissionsSeen() []sdk.RequestPermissionRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]sdk.RequestPermissionRequest(nil), c.permissions...)
}

// planBuildRig is newRig(s) over a workspace holding app.txt ("alpha\n")
// whose model runs testdata/scripts/plan_build.yaml: it plans to uppercase
// app.txt, asks the plan's approval (c6) and, approved, builds.
func planBuildRig(t *testing.T, s setup) *rig {
	t.Helper()
	script, err := os.ReadFile("../testdata/scripts/plan_build.yaml")
	if err != nil {
		t.Fatalf("read the plan_build script: %v", err)
	}
	s.files, s.script = map[string]string{"app.txt": "alpha\n"}, string(script)
	return newRig(t, s)
}

// formCaps are the capabilities of a client that shows elicitation forms.
var formCaps = sdk.ClientCapabilities{Elicitation: &sdk.ElicitationCapabilities{Form: &sdk.ElicitationFormCapabilities{}}}

// heldElicitationRig is newRig whose model runs script, for a client that
// shows elicitation forms and answers them late: asked closes when the
// (first) elicitation/create arrives, answered cancel at the test's end
// (before the rig's cleanup).
func heldElicitationRig(t *testing.T, script string) (r *rig, asked <-chan struct{}) {
	t.Helper()
	ask, release := make(chan struct{}), make(chan struct{})
	client := &testClient{elicit: func(sdk.UnstableCreateElicitationRequest) sdk.UnstableCreateElicitationResponse {
		close(ask)
		<-release
		return sdk.UnstableCreateElicitationResponse{Cancel: &sdk.UnstableCreateElicitationCancel{Action: "cancel"}}
	}}
	r = newRig(t, setup{client: client, caps: formCaps, script: script})
	t.Cleanup(func() { close(release) }) // registered after the rig's: runs first
	return r, ask
}

func optionIDs(p sdk.RequestPermissionRequest) []string {
	var out []string
	for _, o := range p.Options {
		out = append(out, string(o.OptionId)+"/"+string(o.Kind))
	}
	return out
}

// session/cancel while a permission request is open ends the turn
// promptly with `cancelled`; the command never runs.
func TestCancelWithdrawsPendingPermission(t *testing.T) {
	t.Parallel()
	asked := make(chan struct{})
	client := &testClient{permit: func(ctx context.Context, _ sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		close(asked)
		<-ctx.Done() // the agent withdraws the request ($/cancel_request)
		return sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{}}
	}}
	r := newRig(t, setup{userConfig: buildByDefault, client: client, script: `
steps:
  - tool_calls: [{id: r1, name: run, args: {command: "touch made"}}]
`})
	sid := r.newSession().SessionId
	done := r.promptAsync(sid, "make it")
	<-asked
	r.cancel(sid)
	res := <-done
	if res.err != nil || res.stop != sdk.StopReasonCancelled {
		t.Fatalf("prompt after cancel: %s, %v", res.stop, res.err)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "made")); err == nil {
		t.Error("the command ran after the cancel")
	}
	// The session takes a new prompt (the script has no more steps: the
	// turn fails with a model error, not "busy").
	if _, err := r.prompt(sid, "again"); err == nil || strings.Contains(err.Error(), "busy") {
		t.Errorf("prompt after cancel: %v", err)
	}
}

// A `cancelled` permission outcome means the turn was cancelled.
func TestCancelledPermissionOutcomeCancelsTheTurn(t *testing.T) {
	t.Parallel()
	r := planBuildRig(t, setup{client: &testClient{}}) // nil permit: answers `cancelled`
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "Uppercase alpha"); stop != sdk.StopReasonCancelled {
		t.Fatalf("stop %s, want cancelled", stop)
	}
	if got := r.read("app.txt"); got != "alpha\n" {
		t.Errorf("app.txt changed: %q", got)
	}
	res, err := r.conn.ListSessions(r.ctx, sdk.ListSessionsRequest{Cwd: &r.dir})
	if err != nil || len(res.Sessions) != 1 {
		t.Fatalf("list: %+v %v", res, err)
	}
}

func TestQuestionAsElicitationForm(t *testing.T) {
	t.Parallel()
	client := &testClient{elicit: func(p sdk.UnstableCreateElicitationRequest) sdk.UnstableCreateElicitationResponse {
		return sdk.UnstableCreateElicitationResponse{Accept: &sdk.UnstableCreateElicitationAccept{Action: "accept",
			Content: map[string]any{"env": "staging", "confirm": true}}}
	}}
	r := newRig(t, setup{client: client, caps: formCaps, script: `
steps:
` + askEnvAndConfirm + `  - expect: {tool_result_contains: {q1: ['"status":"answered"', '"env":"staging"', '"confirm":true']}}
    text: "Thanks."
`})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "ask me"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s", stop)
	}
	reqs := r.wire.requests("elicitation/create")
	if len(reqs) != 1 {
		t.Fatalf("%d elicitations", len(reqs))
	}
	e := reqs[0]
	schema, _ := e["requestedSchema"].(map[string]any)
	props, _ := schema["properties"].(map[string]any)
	if e["mode"] != "form" || e["sessionId"] != string(sid) || e["toolCallId"] != "q1" || len(props) != 2 {
		t.Errorf("elicitation %v", e)
	}
	if len(client.permissionsSeen()) != 0 {
		t.Error("a form-capable client was also asked with request_permission")
	}
}

// Choice questions without elicitation, answered by a client that decides
// by option kind as CodeCompanion.nvim and avante.nvim do (a kind's last
// option is the one it sends): a yes/no question is a permission request
// whose two options have different kinds, so the person's pick is the
// answer; any other choice (an enum, buttons of other values) is asked as
// text, answered by the next prompt. Before, an enum went as one allow_once
// option per value, and either key answered the last value.
func TestChoiceQuestionsSurviveKindMappingClients(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, question string
		pick           sdk.PermissionOptionKind // what the person presses; "" for a text question
		answer         string                   // the next prompt, for a text question
		want           string                   // in the ask_user result or the model's last message
		names          []string                 // the options' names, for a permission request
	}{
		{"enum", `{name: env, question: "Which environment?", schema: {type: string, enum: [dev, staging]}}`, "", "dev", `dev`, nil},
		{"string buttons", `{name: env, question: "Which environment?", schema: {type: string}, buttons: [{label: Dev, value: dev}, {label: Staging, value: staging, variant: danger}]}`, "", "dev", `dev`, nil},
		{"boolean, no", `{name: keep, question: "Keep the old API?", schema: {type: boolean}}`, sdk.PermissionOptionKindRejectOnce, "", `"keep":false`, []string{"Yes", "No"}},
		{"boolean, yes", `{name: keep, question: "Keep the old API?", schema: {type: boolean}}`, sdk.PermissionOptionKindAllowOnce, "", `"keep":true`, []string{"Yes", "No"}},
		{"boolean buttons, danger yes", `{name: del, question: "Delete the old API?", schema: {type: boolean}, buttons: [{label: Delete, value: true, variant: danger}, {label: Keep, value: false}]}`, sdk.PermissionOptionKindAllowOnce, "", `"del":true`, []string{"Delete", "Keep"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			client := &testClient{permit: func(_ context.Context, p sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
				byKind := map[sdk.PermissionOptionKind]sdk.PermissionOptionId{}
				for _, o := range p.Options {
					byKind[o.Kind] = o.OptionId // the last of a kind wins, as in those clients
				}
				return sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: byKind[tc.pick]}}
			}}
			expect := "{tool_result_contains: {q1: ['" + tc.want + "']}}"
			if tc.pick == "" {
				expect = "{last_message_contains: ['" + tc.want + "']}"
			}
			r := newRig(t, setup{client: client, script: `
steps:
  - tool_calls:
      - {id: q1, name: ask_user, args: {questions: [` + tc.question + `]}}
  - expect: ` + expect + `
    text: "Noted."
`})
			sid := r.newSession().SessionId
			if stop := r.mustPrompt(sid, "ask me"); stop != sdk.StopReasonEndTurn {
				t.Fatalf("stop %s", stop)
			}
			perms := client.permissionsSeen()
			if tc.pick == "" {
				if len(perms) != 0 {
					t.Fatalf("a choice that is not yes/no went as a permission request: %+v", perms)
				}
				if !strings.Contains(r.client.agentText(), "Which environment?") {
					t.Fatalf("agent text %q lacks the question", r.client.agentText())
				}
				if stop := r.mustPrompt(sid, tc.answer); stop != sdk.StopReasonEndTurn {
					t.Fatalf("answer: stop %s", stop)
				}
			} else {
				if len(perms) != 1 || perms[0].ToolCall.ToolCallId != "q1" || len(perms[0].Options) != 2 {
					t.Fatalf("permission requests %+v", perms)
				}
				o := perms[0].Options
				if o[0].Kind == o[1].Kind || o[0].Name != tc.names[0] || o[1].Name != tc.names[1] {
					t.Fatalf("options %+v: want two kinds, named %v", o, tc.names)
				}
			}
			if !strings.HasSuffix(r.client.agentText(), "Noted.") {
				t.Errorf("the model did not get %s: agent text %q", tc.want, r.client.agentText())
			}
		})
	}
}

// A free-text question without elicitation ends the turn with the question
// as agent text; the next prompt answers it.
func TestFreeTextQuestionEndsTurnAndNextPromptAnswers(t *testing.T) {
	t.Parallel()
	r := newRig(t, setup{script: `
steps:
  - tool_calls:
      - {id: q1, name: ask_user, args: {questions: [{name: colour, question: "Which colour should the button be?", schema: {type: string}}]}}
  - expect: {last_message_contains: ["teal"]}
    text: "Teal it is."
`})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "style the button"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s, want end_turn", stop)
	}
	if !strings.Contains(r.client.agentText(), "Which colour should the button be?") {
		t.Errorf("agent text %q lacks the question", r.client.agentText())
	}
	if stop := r.mustPrompt(sid, "teal"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("answer: stop %s", stop)
	}
	if !strings.HasSuffix(r.client.agentText(), "Teal it is.") {
		t.Errorf("agent text %q", r.client.agentText())
	}
}

// With fs.readTextFile, read sees the client's unsaved buffer.
func TestReadGoesThroughTheClient(t *testing.T) {
	t.Parallel()
	client := &testClient{}
	r := newRig(t, setup{client: client, files: map[string]string{"app.txt": "on disk\n"},
		caps: sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true}}, script: `
steps:
  - tool_calls:
      - {id: c1, name: read, args: {path: app.txt}}
      - {id: c2, name: read, args: {path: ../outside.txt}}
  - expect: {tool_result_contains: {c1: ["unsaved in the editor"], c2: ["outside"]}}
    text: "Read."
`})
	client.buffers = map[string]string{filepath.Join(r.dir, "app.txt"): "unsaved in the editor\n"}
	if err := os.WriteFile(filepath.Join(filepath.Dir(r.dir), "outside.txt"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "read it"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s", stop)
	}
	client.mu.Lock()
	reads := append([]string(nil), client.reads...)
	client.mu.Unlock()
	if !slices.Equal(reads, []string{filepath.Join(r.dir, "app.txt")}) {
		t.Errorf("fs/read_text_file paths %v", reads)
	}
}

// A read the client fails drops what an earlier read got from it: the disk,
// changed since, is the truth again (an edit computed on the old buffer
// would overwrite it).
func TestFailedClientReadFallsBackToTheDisk(t *testing.T) {
	t.Parallel()
	client := &testClient{}
	r := newRig(t, setup{client: client, files: map[string]string{"app.txt": "on disk\n"},
		caps: sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true}}, script: `
steps:
  - tool_calls: [{id: r1, name: read, args: {path: app.txt}}]
  - expect: {tool_result_contains: {r1: ["unsaved in the editor"]}}
    text: "Read."
  - tool_calls: [{id: r2, name: read, args: {path: app.txt}}]
  - expect: {tool_result_contains: {r2: ["newer on disk"]}}
    text: "Read again."
`})
	client.buffers = map[string]string{filepath.Join(r.dir, "app.txt"): "unsaved in the editor\n"}
	sid := r.newSession().SessionId
	r.mustPrompt(sid, "read it")
	client.mu.Lock()
	client.buffers, client.failReads = nil, true
	client.mu.Unlock()
	if err := os.WriteFile(filepath.Join(r.dir, "app.txt"), []byte("newer on disk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if stop := r.mustPrompt(sid, "read it again"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s", stop)
	}
}

// session/load after a restart replays the conversation with the mode.
func TestLoadAfterRestartReplaysWithMode(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "ws")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	first := newRig(t, setup{dir: dir, script: "steps:\n  - text: \"Hi there.\"\n"})
	sid := first.newSession().SessionId
	first.mustPrompt(sid, "hello")
	if _, err := first.conn.SetSessionMode(first.ctx, sdk.SetSessionModeRequest{SessionId: sid, ModeId: "build"}); err != nil {
		t.Fatal(err)
	}
	// While the first process drives it, another cannot load it.
	second := newRig(t, setup{dir: dir})
	if _, err := second.conn.LoadSession(second.ctx, sdk.LoadSessionRequest{SessionId: sid, Cwd: dir, McpServers: []sdk.McpServer{}}); err == nil {
		t.Error("a second process loaded a session the first one drives")
	} else if !strings.Contains(err.Error(), "another") && !strings.Contains(err.Error(), "lock") {
		t.Errorf("second load: %v", err)
	}
	first.stop()
	third := newRig(t, setup{dir: dir})
	res, err := third.conn.LoadSession(third.ctx, sdk.LoadSessionRequest{SessionId: sid, Cwd: dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if res.Modes == nil || res.Modes.CurrentModeId != "build" {
		t.Errorf("modes %+v", res.Modes)
	}
	kinds := third.client.kinds()
	if !slices.Contains(kinds, "user_message_chunk") || !slices.Contains(kinds, "agent_message_chunk") {
		t.Errorf("replayed %v", kinds)
	}
	if got := third.client.agentText(); got != "Hi there." {
		t.Errorf("replayed agent text %q", got)
	}
	third.client.mu.Lock()
	firstUpdate := third.client.updates[0]
	third.client.mu.Unlock()
	b, _ := json.Marshal(firstUpdate)
	if !strings.Contains(string(b), "hello") {
		t.Errorf("first replayed update %s", b)
	}
}

// session/cancel while an elicitation form is open withdraws it
// ($/cancel_request) and ends the turn cancelled.
func TestCancelWithdrawsElicitation(t *testing.T) {
	t.Parallel()
	r, asked := heldElicitationRig(t, `
steps:
  - tool_calls:
      - {id: q1, name: ask_user, args: {questions: [{name: colour, question: "Which colour?", schema: {type: string}}]}}
`)
	sid := r.newSession().SessionId
	done := r.promptAsync(sid, "ask")
	<-asked
	r.cancel(sid)
	if res := <-done; res.stop != sdk.StopReasonCancelled {
		t.Errorf("stop %s (%v)", res.stop, res.err)
	}
	reqs := r.wire.all()
	var elicitID any
	cancelled := false
	for _, m := range reqs {
		if m["method"] == "elicitation/create" {
			elicitID = m["id"]
		}
		if p, _ := m["params"].(map[string]any); m["method"] == "$/cancel_request" && p["requestId"] == elicitID {
			cancelled = true
		}
	}
	if elicitID == nil || !cancelled {
		t.Errorf("the elicitation (%v) was not withdrawn with $/cancel_request", elicitID)
	}
}

// session/set_mode build while the approval is asked approves the plan:
// the permission request is withdrawn and the same turn builds.
func TestSetModeBuildApprovesThePendingPlan(t *testing.T) {
	t.Parallel()
	asked := make(chan struct{})
	client := &testClient{permit: func(ctx context.Context, _ sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		close(asked)
		<-ctx.Done() // withdrawn once the mode switch approved the plan
		return sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{}}
	}}
	r := planBuildRig(t, setup{client: client})
	sid := r.newSession().SessionId
	done := r.promptAsync(sid, "Uppercase alpha")
	<-asked
	time.Sleep(acptest.PersonReads) // a person reads the plan, then switches to build
	if _, err := r.conn.SetSessionMode(r.ctx, sdk.SetSessionModeRequest{SessionId: sid, ModeId: "build"}); err != nil {
		t.Fatal(err)
	}
	if res := <-done; res.err != nil || res.stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s (%v)", res.stop, res.err)
	}
	if got := r.read("app.txt"); got != "ALPHA\n" {
		t.Errorf("app.txt = %q: the turn did not build", got)
	}
	if !strings.Contains(r.read("plans/shout.plan"), "status: approved") {
		t.Errorf("the plan is not approved:\n%s", r.read("plans/shout.plan"))
	}
}

// A client that keeps a written file in an unsaved buffer: the workspace
// sees the edit through its overlay, so the next read and edit build on it.
func TestUnsavedClientWriteIsSeenByTheNextRead(t *testing.T) {
	t.Parallel()
	client := &testClient{keepWrites: true}
	r := newRig(t, setup{userConfig: buildByDefault, client: client, files: map[string]string{"app.txt": "alpha\n"},
		caps: sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{WriteTextFile: true}}, script: `
steps:
  - tool_calls: [{id: e1, name: edit, args: {path: app.txt, old_string: alpha, new_string: beta}}]
  - expect: {tool_result_contains: {e1: ['"success":true']}}
    tool_calls: [{id: r1, name: read, args: {path: app.txt}}]
  - expect: {tool_result_contains: {r1: ["beta"]}}
    tool_calls: [{id: e2, name: edit, args: {path: app.txt, old_string: beta, new_string: gamma}}]
  - expect: {tool_result_contains: {e2: ['"success":true']}}
    text: "Done."
`})
	if stop := r.mustPrompt(r.newSession().SessionId, "edit"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s", stop)
	}
	if got := r.read("app.txt"); got != "alpha\n" {
		t.Errorf("the disk changed: %q (the client keeps the buffer)", got)
	}
	client.mu.Lock()
	defer client.mu.Unlock()
	if got := client.buffers[filepath.Join(r.dir, "app.txt")]; got != "gamma\n" {
		t.Errorf("client buffer %q", got)
	}
}
