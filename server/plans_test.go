package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server"
	"github.com/agentls/agentls/server/internal/lsptest"
	"github.com/agentls/agentls/workspace"
)

// This file proves plans as living documents end to end: the code lenses on
// `.plan` documents and the commands they run, the `plan` update following
// the user's edits, the status lifecycle (approved, implemented, archived),
// and workspace/executeCommand for every command.

// lensPlan is a plan with one of its two steps done.
const lensPlan = "---\ntitle: Lens plan\nstatus: draft   # draft | approved | implemented | archived\ncreated_at: 2025-01-15T10:30:00Z\n---\n" +
	"# Goal\nShip it.\n\n## Files\n- a.go\n\n## Steps\n- [x] one\n- [ ] two\n\n## Verification\n- go test\n"

// withStatus is lensPlan with another status (nothing else changes).
func withStatus(text, status string) string {
	return strings.Replace(text, "status: draft ", "status: "+status+" ", 1)
}

type lens struct {
	Range   workspace.Range `json:"range"`
	Command struct {
		Title     string            `json:"title"`
		Command   string            `json:"command"`
		Arguments []json.RawMessage `json:"arguments"`
	} `json:"command"`
}

// lensesOf asks for the code lenses of a workspace file.
func lensesOf(h *lsptest.Env, rel string) []lens {
	h.T.Helper()
	var out []lens
	if err := h.Editor.Call(h.Ctx, "textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": h.Editor.URI(rel)}}, &out); err != nil {
		h.T.Fatalf("codeLens %s: %v", rel, err)
	}
	return out
}

// renderLenses is "title → command args" per lens.
func renderLenses(ls []lens) []string {
	var out []string
	for _, l := range ls {
		s := l.Command.Title + " → " + l.Command.Command
		for _, a := range l.Command.Arguments {
			s += " " + string(a)
		}
		out = append(out, s)
	}
	return out
}

// runLens executes a lens's command as an editor does.
func runLens(h *lsptest.Env, l lens, result any) error {
	args := l.Command.Arguments
	if args == nil {
		args = []json.RawMessage{}
	}
	return h.Editor.Call(h.Ctx, "workspace/executeCommand", map[string]any{"command": l.Command.Command, "arguments": args}, result)
}

// command runs workspace/executeCommand with one argument object.
func command(h *lsptest.Env, name string, arg any, result any) error {
	return h.Editor.Call(h.Ctx, "workspace/executeCommand", map[string]any{"command": name, "arguments": []any{arg}}, result)
}

// planEntries renders the plan updates of a session, one string each:
// "[x] one | [>] two" (completed, in progress, pending "[ ]").
func planEntries(h *lsptest.Env, ms []lspclient.Message, sid string) []string {
	var out []string
	for _, m := range ms {
		if m.Method != "agent/update" {
			continue
		}
		var p struct {
			SessionID string `json:"sessionId"`
			Update    struct {
				SessionUpdate string `json:"sessionUpdate"`
				PlanFile      string `json:"planFile"`
				Entries       []struct {
					Content string `json:"content"`
					Status  string `json:"status"`
				} `json:"entries"`
			} `json:"update"`
		}
		if json.Unmarshal(m.Params, &p) != nil || p.SessionID != sid || p.Update.SessionUpdate != "plan" {
			continue
		}
		var parts []string
		for _, e := range p.Update.Entries {
			mark := map[string]string{"completed": "[x]", "in_progress": "[>]", "pending": "[ ]"}[e.Status]
			parts = append(parts, mark+" "+e.Content)
		}
		out = append(out, p.Update.PlanFile+": "+strings.Join(parts, " | "))
	}
	return out
}

// awaitPlanUpdate waits for a plan update of sid, after the first `after`
// ones, that renders as want.
func awaitPlanUpdate(h *lsptest.Env, sid string, after int, want string) int {
	h.T.Helper()
	at := -1
	h.Await(lsptest.Expectation{
		Description: fmt.Sprintf("plan update %q of session %s (after the first %d)", want, sid, after),
		Check: func(s lsptest.State) lsptest.Verdict {
			got := planEntries(h, s.Messages, sid)
			for i := after; i < len(got); i++ {
				if got[i] == want {
					at = i
					return lsptest.Met
				}
			}
			return lsptest.Unmet
		},
	})
	return at
}

// applyEditLabels lists the labels of the workspace/applyEdit requests.
func applyEditLabels(h *lsptest.Env) []string {
	var out []string
	for _, raw := range h.Messages("workspace/applyEdit") {
		var p struct {
			Label string `json:"label"`
		}
		if json.Unmarshal(raw, &p) == nil {
			out = append(out, p.Label)
		}
	}
	return out
}

func countContaining(list []string, sub string) int {
	n := 0
	for _, s := range list {
		if strings.Contains(s, sub) {
			n++
		}
	}
	return n
}

func TestPlanCodeLensesAndArchive(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{Files: map[string]string{"plans/lens.plan": lensPlan, "notes.txt": "- [ ] x\n"}})
	got := renderLenses(lensesOf(h, "plans/lens.plan"))
	want := []string{
		`Approve & Build → agentls.buildPlan {"path":"plans/lens.plan"}`,
		`1/2 steps done → agentls.showPlan {"path":"plans/lens.plan"}`,
		`Archive → agentls.archivePlan {"path":"plans/lens.plan"}`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("lenses = %q, want %q", got, want)
	}
	if got := lensesOf(h, "notes.txt"); len(got) != 0 {
		t.Fatalf("lenses on a file that is not a plan: %q", renderLenses(got))
	}
	// The lens's progress follows the open buffer.
	if err := h.Editor.Open(h.Ctx, "plans/lens.plan", strings.Replace(lensPlan, "- [ ] two", "- [x] two\n- [ ] three", 1)); err != nil {
		t.Fatal(err)
	}
	if got := renderLenses(lensesOf(h, "plans/lens.plan")); got[1] != `2/3 steps done → agentls.showPlan {"path":"plans/lens.plan"}` {
		t.Fatalf("lenses on the buffer = %q", got)
	}
	if err := h.Editor.CloseDocument(h.Ctx, "plans/lens.plan"); err != nil {
		t.Fatal(err)
	}

	// Archive: only the status changes, through the editor.
	var res map[string]string
	if err := runLens(h, lensesOf(h, "plans/lens.plan")[2], &res); err != nil {
		t.Fatalf("archive lens: %v", err)
	}
	if res["path"] != "plans/lens.plan" || res["status"] != "archived" {
		t.Fatalf("archive result = %v", res)
	}
	if got, want := h.Read("plans/lens.plan"), withStatus(lensPlan, "archived"); got != want {
		t.Fatalf("archived plan =\n%s\nwant\n%s", got, want)
	}
	if n := countContaining(applyEditLabels(h), "archived"); n != 1 {
		t.Fatalf("%d applyEdit for the archive, want 1", n)
	}
	// An archived plan shows only its status and progress; archiving again changes nothing.
	if got := renderLenses(lensesOf(h, "plans/lens.plan")); !slices.Equal(got, []string{
		`Status: archived → agentls.showPlan {"path":"plans/lens.plan"}`, `1/2 steps done → agentls.showPlan {"path":"plans/lens.plan"}`}) {
		t.Fatalf("lenses on an archived plan = %q", got)
	}
	if err := command(h, "agentls.archivePlan", map[string]any{"path": h.Editor.URI("plans/lens.plan")}, &res); err != nil {
		t.Fatalf("archive again (by URI): %v", err)
	}
	if n := len(h.Messages("workspace/applyEdit")); n != 1 {
		t.Fatalf("%d applyEdit after archiving twice, want 1", n)
	}
}

// TestBuildLensAndUserEdits: "Approve & Build" without a waiting session
// starts a build session with the plan attached (approved); the user's
// edits in the editor (didChange, didSave) reach every session that has the
// plan as `plan` updates; ticking the last step makes it implemented.
func TestBuildLensAndUserEdits(t *testing.T) {
	t.Parallel()
	const rel = "plans/u.plan"
	h := lsptest.Start(t, lsptest.Setup{Files: map[string]string{rel: lensPlan}})
	var s1 agentproto.Session
	if err := runLens(h, lensesOf(h, rel)[0], &s1); err != nil {
		t.Fatalf("build lens: %v", err)
	}
	if s1.Mode != "build" || s1.PlanFile == nil || *s1.PlanFile != rel || s1.Title != "Lens plan" {
		t.Fatalf("build lens session = %+v", s1)
	}
	if got := h.Editor.Mode(s1.SessionID); got != "build" {
		t.Fatalf("status bar = %q, want build", got)
	}
	approved := withStatus(lensPlan, "approved")
	if got := h.Read(rel); got != approved {
		t.Fatalf("plan after the build lens =\n%s\nwant only the status approved", got)
	}
	awaitPlanUpdate(h, s1.SessionID, 0, rel+": [x] one | [>] two")
	var s2 agentproto.Session
	if err := command(h, "agentls.buildPlan", map[string]any{"path": rel}, &s2); err != nil {
		t.Fatalf("buildPlan: %v", err)
	}
	n1, n2 := len(planEntries(h, h.Editor.Messages(), s1.SessionID)), awaitPlanUpdate(h, s2.SessionID, 0, rel+": [x] one | [>] two")+1

	// The user renames a step in the editor: both sessions hear of it.
	if err := h.Editor.Open(h.Ctx, rel, approved); err != nil {
		t.Fatal(err)
	}
	line := uint32(slices.Index(strings.Split(approved, "\n"), "- [ ] two"))
	if err := h.Editor.Change(h.Ctx, rel, workspace.TextEdit{Range: workspace.Range{Start: pos(line, 6), End: pos(line, 9)}, NewText: "two, carefully"}); err != nil {
		t.Fatal(err)
	}
	n1 = awaitPlanUpdate(h, s1.SessionID, n1, rel+": [x] one | [>] two, carefully") + 1
	n2 = awaitPlanUpdate(h, s2.SessionID, n2, rel+": [x] one | [>] two, carefully") + 1

	// The user ticks the last step: the plan becomes implemented, in the buffer.
	if err := h.Editor.Change(h.Ctx, rel, workspace.TextEdit{Range: workspace.Range{Start: pos(line, 3), End: pos(line, 4)}, NewText: "x"}); err != nil {
		t.Fatal(err)
	}
	n1 = awaitPlanUpdate(h, s1.SessionID, n1, rel+": [x] one | [x] two, carefully") + 1
	n2 = awaitPlanUpdate(h, s2.SessionID, n2, rel+": [x] one | [x] two, carefully") + 1
	done := strings.Replace(withStatus(lensPlan, "implemented"), "- [ ] two", "- [x] two, carefully", 1)
	// The server sends s1 its plan update once the editor applied the edit.
	h.Await(lsptest.Expectation{
		Description: "the plan marked implemented (a workspace/applyEdit), then a plan update of session " + s1.SessionID,
		Check: func(s lsptest.State) lsptest.Verdict {
			marked := false
			for _, m := range s.Messages {
				p := string(m.Params)
				if m.Method == "workspace/applyEdit" && strings.Contains(p, "implemented") {
					marked = true
				} else if marked && m.Method == "agent/update" && strings.Contains(p, s1.SessionID) && strings.Contains(p, `"sessionUpdate":"plan"`) {
					return lsptest.Met
				}
			}
			return lsptest.Unmet
		},
	})
	if b, _ := h.Editor.Buffer(rel); b != done {
		t.Fatalf("buffer =\n%s\nwant\n%s", b, done)
	}
	// Saving reports the plan again; by then the status was set exactly once.
	if err := h.Editor.Save(h.Ctx, rel); err != nil {
		t.Fatal(err)
	}
	awaitPlanUpdate(h, s1.SessionID, n1, rel+": [x] one | [x] two, carefully")
	awaitPlanUpdate(h, s2.SessionID, n2, rel+": [x] one | [x] two, carefully")
	if n := countContaining(applyEditLabels(h), "implemented"); n != 1 {
		t.Fatalf("%d applyEdit marking the plan implemented, want 1: %q", n, applyEditLabels(h))
	}
	if got := h.Read(rel); got != done {
		t.Fatalf("saved plan =\n%s\nwant\n%s", got, done)
	}
}

// TestBuilderTickMakesPlanImplemented: in build mode, the builder ticking
// the last step with plan_edit makes the plan implemented (only the status
// changes besides the tick).
func TestBuilderTickMakesPlanImplemented(t *testing.T) {
	t.Parallel()
	const rel = "plans/b.plan"
	h := lsptest.Start(t, lsptest.Setup{
		Files: map[string]string{rel: lensPlan},
		Script: `
name: tick
steps:
  - expect:
      system_contains: ["You are in BUILD mode", "## APPROVED EXECUTION PLAN", "Source: plans/b.plan", "- [ ] two"]
    tool_calls:
      - {id: t, name: plan_edit, args: {path: plans/b.plan, old_string: "- [ ] two", new_string: "- [x] two"}}
  - text: done
    expect:
      tool_result_contains: {t: ['"success":true']}
`,
	})
	var s agentproto.Session
	if err := command(h, "agentls.buildPlan", map[string]any{"path": rel}, &s); err != nil {
		t.Fatalf("buildPlan: %v", err)
	}
	if r := h.Prompt(s.SessionID, "build it"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", r)
	}
	if h.Model.Remaining() != 0 {
		t.Fatalf("script has %d steps left", h.Model.Remaining())
	}
	want := strings.Replace(withStatus(lensPlan, "implemented"), "- [ ] two", "- [x] two", 1)
	if got := h.Read(rel); got != want {
		t.Fatalf("plan =\n%s\nwant\n%s", got, want)
	}
	got := planEntries(h, h.Editor.Messages(), s.SessionID)
	if len(got) == 0 || got[len(got)-1] != rel+": [x] one | [x] two" {
		t.Fatalf("plan updates = %q", got)
	}
	if got := renderLenses(lensesOf(h, rel)); got[1] != `2/2 steps done → agentls.showPlan {"path":"plans/b.plan"}` {
		t.Fatalf("lenses = %q", got)
	}
}

// TestApproveAndRejectThroughLensAndCommands: while a session waits for a
// plan's approval, agentls.rejectPlan sends the model the rejection, and the
// plan's "Approve & Build" lens approves the next presentation.
func TestApproveAndRejectThroughLensAndCommands(t *testing.T) {
	t.Parallel()
	const rel = "plans/greet.plan"
	release := make(chan struct{})
	defer close(release)
	h := lsptest.Start(t, lsptest.Setup{
		Handlers: lspclient.Handlers{AskUser: blockingAsk(release, map[string]any{"dismissed": true})},
		Script: `
name: lens-approval
steps:
  - tool_calls:
      - {id: w, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: "# Goal\nGreet.\n\n## Steps\n- [ ] Write hello.txt\n"}}
  - tool_calls:
      - {id: x1, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
  - expect:
      tool_result_contains: {x1: ["Plan rejected by the user. Reason: too vague"]}
    tool_calls:
      - {id: e, name: plan_edit, args: {path: plans/greet.plan, old_string: "Write hello.txt", new_string: "Write hello.txt with a greeting"}}
  - tool_calls:
      - {id: x2, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
  - text: building
    expect:
      tool_result_contains: {x2: ['"approved":true']}
      system_contains: ["You are in BUILD mode", "Write hello.txt with a greeting"]
`,
	})
	s := h.NewSession("plan")
	done := h.PromptAsync(s.SessionID, "plan a greeting")
	awaitAskCount := func(n int) {
		t.Helper()
		h.Await(lsptest.MethodCount("agent/askUser", n))
	}
	awaitAskCount(1)
	approveLens := `Approve & Build → agentls.approvePlan {"planFile":"` + rel + `","sessionId":"` + s.SessionID + `"}`
	if got := renderLenses(lensesOf(h, rel)); got[0] != approveLens {
		t.Fatalf("lenses while the approval waits = %q", got)
	}
	var info agentproto.Session
	if err := command(h, "agentls.rejectPlan", map[string]any{"sessionId": s.SessionID, "reason": "too vague"}, &info); err != nil {
		t.Fatalf("rejectPlan: %v", err)
	}
	if info.Mode != "plan" {
		t.Fatalf("after rejectPlan: %+v", info)
	}
	awaitAskCount(2)
	lenses := lensesOf(h, rel)
	if got := renderLenses(lenses); got[0] != approveLens {
		t.Fatalf("lenses while the second approval waits = %q", got)
	}
	h.ReadAsAPerson() // a person reads the plan before approving it
	if err := runLens(h, lenses[0], &info); err != nil {
		t.Fatalf("approve lens: %v", err)
	}
	if info.Mode != "build" || info.PlanFile == nil || *info.PlanFile != rel {
		t.Fatalf("after the approve lens: %+v", info)
	}
	if r := <-done; r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", r)
	}
	if h.Model.Remaining() != 0 {
		t.Fatalf("script has %d steps left", h.Model.Remaining())
	}
	plan, err := workspace.ParsePlan(h.Read(rel))
	if err != nil || plan.Meta == nil || plan.Meta.Status != agentproto.PlanApproved {
		t.Fatalf("plan status after approval: %+v (%v)", plan.Meta, err)
	}
	// Nobody waits now and the plan is approved: its status shows instead.
	if got := renderLenses(lensesOf(h, rel)); got[0] != `Status: approved → agentls.showPlan {"path":"plans/greet.plan"}` {
		t.Fatalf("lenses after the approval = %q", got)
	}
}

// initializeCapabilities starts a server without a model and decodes the
// capabilities of its initialize result into caps.
func initializeCapabilities(t *testing.T, caps any) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	ed, err := lspclient.Start(ctx, dir, func(ctx context.Context, rwc io.ReadWriteCloser) error {
		return server.Serve(ctx, rwc, server.Options{
			Getenv: homeOnly(t),
			NewProvider: func(config.Config, func(string) string, string) (llm.Provider, error) {
				return nil, os.ErrNotExist
			},
		})
	}, lspclient.Handlers{})
	if err != nil {
		t.Fatal(err)
	}
	defer ed.Close()
	var res struct {
		Capabilities json.RawMessage `json:"capabilities"`
	}
	if err := ed.Call(ctx, "initialize", map[string]any{"rootUri": "file://" + filepath.ToSlash(dir), "capabilities": map[string]any{}}, &res); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(res.Capabilities, caps); err != nil {
		t.Fatalf("capabilities %s: %v", res.Capabilities, err)
	}
}

// initializeCommands returns the commands the initialize result declares.
func initializeCommands(t *testing.T) []string {
	t.Helper()
	var caps struct {
		ExecuteCommandProvider struct {
			Commands []string `json:"commands"`
		} `json:"executeCommandProvider"`
	}
	initializeCapabilities(t, &caps)
	return caps.ExecuteCommandProvider.Commands
}

// TestExecuteCommands runs every command of PROTOCOL.md §6 and the plan
// commands through workspace/executeCommand, and their errors.
func TestExecuteCommands(t *testing.T) {
	t.Parallel()
	want := []string{"agentls.answer", "agentls.approvePlan", "agentls.archivePlan", "agentls.buildPlan", "agentls.cancel",
		"agentls.checkModel", "agentls.compact", "agentls.newSession", "agentls.prompt", "agentls.rejectPlan", "agentls.requestChanges", "agentls.rewind", "agentls.setMode", "agentls.setReview", "agentls.setTitle", "agentls.showPlan", "agentls.status"}
	if got := initializeCommands(t); !slices.Equal(got, want) {
		t.Fatalf("declared commands = %q, want %q", got, want)
	}
	h := lsptest.Start(t, lsptest.Setup{
		Script: "name: hi\nsteps:\n  - text: hello\n",
		Files:  map[string]string{"plans/p.plan": lensPlan, "plans/broken.plan": "---\ntitle: never closed\n", "notes.txt": "x\n"},
	})
	var s agentproto.Session
	if err := command(h, "agentls.newSession", map[string]any{"mode": "build", "title": "by command"}, &s); err != nil {
		t.Fatalf("newSession: %v", err)
	}
	if s.Mode != "build" || s.Title != "by command" || s.SessionID == "" {
		t.Fatalf("newSession = %+v", s)
	}
	// agentls.prompt returns once the turn has started; the turn reports
	// through agent/update.
	var started struct {
		SessionID string `json:"sessionId"`
		Started   bool   `json:"started"`
	}
	if err := command(h, "agentls.prompt", map[string]any{"sessionId": s.SessionID, "text": "hi"}, &started); err != nil || !started.Started || started.SessionID != s.SessionID {
		t.Fatalf("prompt = %+v, %v", started, err)
	}
	h.Await(lsptest.MessageMatching("a usage_update", func(m lspclient.Message) bool { return strings.Contains(string(m.Params), `"usage_update"`) }))
	if err := command(h, "agentls.setMode", map[string]any{"sessionId": s.SessionID, "mode": "plan"}, &s); err != nil || s.Mode != "plan" {
		t.Fatalf("setMode = %+v, %v", s, err)
	}
	var null json.RawMessage
	if err := command(h, "agentls.cancel", map[string]any{"sessionId": s.SessionID}, &null); err != nil || string(null) != "null" {
		t.Fatalf("cancel = %s, %v", null, err)
	}
	var b agentproto.Session
	if err := command(h, "agentls.buildPlan", map[string]any{"path": h.Editor.URI("plans/p.plan")}, &b); err != nil || b.PlanFile == nil || *b.PlanFile != "plans/p.plan" {
		t.Fatalf("buildPlan by URI = %+v, %v", b, err)
	}

	errs := []struct {
		command string
		arg     any
		want    string
	}{
		{"agentls.approvePlan", map[string]any{"sessionId": s.SessionID}, "no plan is awaiting approval"},
		{"agentls.rejectPlan", map[string]any{"sessionId": s.SessionID, "reason": "no"}, "no plan is awaiting approval"},
		{"agentls.approvePlan", "not an object", `agentls.approvePlan expects {"sessionId": "…", "planFile": "…"} (both optional: the current session; planFile, a lens's, must await approval); got the text "not an object"`},
		{"agentls.setMode", map[string]any{"sessionId": s.SessionID, "mode": "yolo"}, `mode must be "plan" or "build"`},
		{"agentls.buildPlan", map[string]any{}, "path is required"},
		{"agentls.buildPlan", map[string]any{"path": "notes.txt"}, "is not an existing .plan file"},
		{"agentls.buildPlan", map[string]any{"path": "plans/missing.plan"}, "is not an existing .plan file"},
		{"agentls.archivePlan", map[string]any{"path": "../outside.plan"}, "outside the workspace"},
		{"agentls.archivePlan", map[string]any{"path": "plans/broken.plan"}, "cannot archive plans/broken.plan"},
		{"agentls.archivePlan", map[string]any{"path": 42}, "invalid params"},
		{"agentls.nonsense", map[string]any{}, `unknown command "agentls.nonsense"`},
	}
	for _, tc := range errs {
		t.Run(tc.command, func(t *testing.T) {
			err := command(h, tc.command, tc.arg, nil)
			if lsptest.RPCCode(err) != -32602 || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%s(%v) = %v, want -32602 containing %q", tc.command, tc.arg, err, tc.want)
			}
		})
	}
	if got := h.Read("plans/broken.plan"); got != "---\ntitle: never closed\n" {
		t.Fatalf("a failed archive changed the plan: %q", got)
	}
}
