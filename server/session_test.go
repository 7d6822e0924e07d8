package server_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

func loadScript(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "scripts", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func approveAll(params json.RawMessage) any {
	var p struct {
		Purpose string `json:"purpose"`
	}
	_ = json.Unmarshal(params, &p)
	if p.Purpose == "plan_approval" {
		return map[string]any{"answers": map[string]any{"approve": true}}
	}
	return map[string]any{"dismissed": true}
}

func TestPlanThenBuild(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Script:   loadScript(t, "plan_build.yaml"),
		Files:    map[string]string{"app.txt": "alpha\nbeta\n"},
		Handlers: lspclient.Handlers{AskUser: approveAll},
	})
	s := h.NewSession("")
	if s.Mode != "plan" || s.PlanFile != nil {
		t.Fatalf("new session = %+v, want plan mode without plan", s)
	}
	if got := h.Editor.Mode(s.SessionID); got != "plan" {
		t.Fatalf("status bar after newSession = %q, want plan", got)
	}
	res := h.Prompt(s.SessionID, "uppercase alpha")
	if res.StopReason != "end_turn" || res.Error != nil {
		t.Fatalf("prompt = %+v", res)
	}
	if h.Model.Remaining() != 0 {
		t.Fatalf("script has %d steps left", h.Model.Remaining())
	}
	// Nothing but the plan changed in plan mode; the builder's edit landed.
	if got := h.Read("app.txt"); got != "ALPHA\nbeta\n" {
		t.Fatalf("app.txt = %q", got)
	}
	for _, f := range []string{"new.go", "pwned"} {
		if _, err := os.Stat(filepath.Join(h.Dir, f)); !os.IsNotExist(err) {
			t.Fatalf("%s exists: the guard let a plan-mode change through", f)
		}
	}
	plan := h.Read("plans/shout.plan")
	if !strings.Contains(plan, "status: approved") {
		t.Fatalf("plan status not approved:\n%s", plan)
	}
	// Refusals are reported failed, with the structured refusal, never completed.
	refused := 0
	type refusedCall struct {
		agent.UpdateToolCallDone
		// Refusal as the wire has it: the test checks its keys.
		Refusal map[string]any `json:"refusal"`
	}
	for _, u := range lsptest.Updates[refusedCall](h, "tool_call_update") {
		if u.Refusal != nil {
			refused++
			if u.Status != "failed" {
				t.Fatalf("refused call reported %v", u.Status)
			}
			r := u.Refusal
			for _, k := range []string{"tool_name", "tool_kind", "hint", "entered_at", "entered_reason"} {
				if _, ok := r[k]; !ok {
					t.Fatalf("refusal lacks %s: %v", k, r)
				}
			}
		}
	}
	if refused != 3 {
		t.Fatalf("%d refused calls, want 3", refused)
	}
	// The mode flipped by the tool, and the status bar shows BUILD.
	if got := h.Editor.Mode(s.SessionID); got != "build" {
		t.Fatalf("status bar = %q, want build", got)
	}
	var sawTool bool
	for _, raw := range h.Messages("agent/modeChanged") {
		var p struct {
			Mode, Source string
			PlanFile     *string
		}
		_ = json.Unmarshal(raw, &p)
		if p.Source == "tool" && p.Mode == "build" && p.PlanFile != nil && *p.PlanFile == "plans/shout.plan" {
			sawTool = true
		}
	}
	if !sawTool {
		t.Fatal("no agent/modeChanged {mode: build, source: tool, planFile}")
	}
	if len(lsptest.Updates[agentproto.ModeUpdate](h, "current_mode_update")) == 0 {
		t.Fatal("no current_mode_update")
	}
	// The edits reached the editor through workspace/applyEdit.
	if n := len(h.Messages("workspace/applyEdit")); n < 2 {
		t.Fatalf("%d applyEdit requests, want the plan and the source edit", n)
	}
	if len(h.Messages("window/showDocument")) != 1 {
		t.Fatal("the plan was not shown for approval")
	}
	var plans struct {
		Plans []struct {
			Path, Title, Status   string
			StepsDone, StepsTotal int
		} `json:"plans"`
		Total int `json:"total"`
	}
	if err := h.Editor.Call(h.Ctx, "agent/listPlans", map[string]any{"status": "approved"}, &plans); err != nil {
		t.Fatal(err)
	}
	if plans.Total != 1 || plans.Plans[0].Path != "plans/shout.plan" || plans.Plans[0].Title != "Shout" || plans.Plans[0].StepsTotal != 1 {
		t.Fatalf("listPlans = %+v", plans)
	}
	lines := h.LogLines()
	for _, prefix := range []string{
		"[plan-mode] entered at ", "[plan-mode] refused tool=edit kind=file_edit", "[plan-mode] refused tool=run kind=execute",
		"[plan-mode] awaiting approval plan=plans/shout.plan (resolve via agent/resolvePlan)",
		"[plan-mode] approved plan=plans/shout.plan", "[plan-mode] exited — plan: ",
	} {
		if !lsptest.HasLine(lines, prefix) {
			t.Errorf("no notify line %q in %q", prefix, lines)
		}
	}
}

func TestSessionSurvivesRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h := lsptest.Start(t, lsptest.Setup{
		Dir:      dir,
		Script:   loadScript(t, "plan_build.yaml"),
		Files:    map[string]string{"app.txt": "alpha\nbeta\n"},
		Handlers: lspclient.Handlers{AskUser: approveAll},
	})
	s := h.NewSession("")
	if res := h.Prompt(s.SessionID, "uppercase alpha"); res.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", res)
	}
	if err := h.Editor.Shutdown(h.Ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}

	h2 := lsptest.Start(t, lsptest.Setup{Dir: dir})
	var list struct {
		Sessions []agentproto.Session `json:"sessions"`
	}
	if err := h2.Editor.Call(h2.Ctx, "agent/listSessions", map[string]any{}, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Sessions) != 1 || list.Sessions[0].SessionID != s.SessionID {
		t.Fatalf("listSessions = %+v", list)
	}
	loaded := h2.LoadSession(s.SessionID)
	if loaded.Mode != "build" || loaded.PlanFile == nil || *loaded.PlanFile != "plans/shout.plan" {
		t.Fatalf("loaded = %+v, want build with plans/shout.plan", loaded.Session)
	}
	if len(loaded.Messages) < 10 {
		t.Fatalf("loaded %d messages", len(loaded.Messages))
	}
	if got := h2.Editor.Mode(s.SessionID); got != "build" {
		t.Fatalf("status bar after load = %q", got)
	}
	// The plan's checklist comes back with the session.
	plans := lsptest.Updates[agentproto.PlanUpdate](h2, "plan")
	if len(plans) != 1 || plans[0].PlanFile != "plans/shout.plan" {
		t.Fatalf("plan updates after load = %v, want one for plans/shout.plan", plans)
	}
	if entries := plans[0].Entries; len(entries) != 1 || entries[0].Content != "Replace alpha with ALPHA" {
		t.Fatalf("plan entries after load = %v, want the plan's one step", plans[0].Entries)
	}
}

func TestPromptContextAndTitle(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Files: map[string]string{"a.txt": "one\ntwo\nthree\n"},
		Script: `
name: context
steps:
  - text: seen
    expect:
      last_message_contains: ["explain this", "Selected in a.txt, lines 2-3", "two\nthree"]
`,
	})
	var s agentproto.Session
	if err := h.Editor.Call(h.Ctx, "agent/newSession", map[string]any{"title": "Explain"}, &s); err != nil {
		t.Fatal(err)
	}
	if s.Title != "Explain" {
		t.Fatalf("title = %q", s.Title)
	}
	var r agentproto.PromptResult
	err := h.Editor.Call(h.Ctx, "agent/prompt", map[string]any{
		"sessionId": s.SessionID, "text": "explain this",
		"context": map[string]any{"uri": h.Editor.URI("a.txt"), "range": map[string]any{
			"start": map[string]int{"line": 1, "character": 0}, "end": map[string]int{"line": 2, "character": 5},
		}},
	}, &r)
	if err != nil || r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v (%s), %v", r, r.Error, err)
	}
}

func TestWorkDoneProgress(t *testing.T) {
	t.Parallel()
	caps := lsptest.FullCaps()
	caps["window"] = map[string]any{"workDoneProgress": true}
	h := lsptest.Start(t, lsptest.Setup{
		Caps:  caps,
		Files: map[string]string{"a.txt": "x\n"},
		Script: `
name: progress
steps:
  - tool_calls:
      - {id: r, name: grep, args: {pattern: x}}
  - text: done
`,
	})
	s := h.NewSession("plan")
	if r := h.Prompt(s.SessionID, "go"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", r)
	}
	if len(h.Messages("window/workDoneProgress/create")) != 1 {
		t.Fatal("no window/workDoneProgress/create")
	}
	var kinds, texts []string
	for _, raw := range h.Messages("$/progress") {
		var p struct {
			Value struct {
				Kind, Message string
			} `json:"value"`
		}
		_ = json.Unmarshal(raw, &p)
		kinds = append(kinds, p.Value.Kind)
		texts = append(texts, p.Value.Message)
	}
	want := "begin report report end"
	if got := strings.Join(kinds, " "); got != want {
		t.Fatalf("progress kinds = %q, want %q", got, want)
	}
	if texts[0] != "PLAN: thinking…" || texts[1] != "PLAN: running grep…" {
		t.Fatalf("progress messages = %q", texts)
	}
}

// TestStreamedTextArrivesInOrder: the chunks of a long streamed answer (and
// its thought) reach the editor in the order they were produced, so the
// concatenation is the model's text.
func TestStreamedTextArrivesInOrder(t *testing.T) {
	t.Parallel()
	var words []string
	for i := range 300 {
		words = append(words, fmt.Sprintf("w%03d", i))
	}
	text := strings.Join(words, " ")
	h := lsptest.Start(t, lsptest.Setup{Script: fmt.Sprintf("name: order\nsteps:\n  - thought: %q\n    text: %q\n", "think "+text, text)})
	s := h.NewSession("plan")
	if r := h.Prompt(s.SessionID, "talk"); r.StopReason != "end_turn" {
		t.Fatalf("stopReason = %q", r.StopReason)
	}
	join := func(kind string) string {
		var b strings.Builder
		for _, u := range lsptest.Updates[agentproto.MessageChunk](h, kind) {
			b.WriteString(u.Content.Text)
		}
		return b.String()
	}
	if got := join("agent_message_chunk"); got != text {
		t.Fatalf("streamed text out of order:\n%s", got)
	}
	if got := join("agent_thought_chunk"); got != "think "+text {
		t.Fatalf("streamed thought out of order:\n%s", got)
	}
}
