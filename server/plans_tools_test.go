package server_test

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/server/internal/lsptest"
	"github.com/agentls/agentls/workspace"
)

// This file proves the plan tools end to end, through the real server and
// the editor: plan_write without a path names a new plan and reaches the
// editor as workspace/applyEdit; plan_read, plan_list and plan_edit answer
// the model; the guard refuses a plan tool aimed at a source file; the
// `plan` update follows the model's writes and the user's edits; a manual
// switch to build approves the attached plan, changing only its status; and
// a broken config file leaves the server running on the other layers.

// structuredPlanArgs is plan_write's structured form, the same plan as
// agent/tools/testdata/structured.plan.golden (without path and status).
const structuredPlanArgs = `{goal: "Let users log in with a JWT.\nSessions stay as they are.", steps: [
          {action: Add the JWT middleware, reason: every protected route needs it, tools_needed: [edit, go test], estimated_time: 30 min},
          {action: Add the login route},
          {action: "Document the\nnew endpoint", reason: "  "}],
        risks: [Clock skew breaks token expiry, ""], prerequisites: [A signing key in the environment]}`

// generatedPlanRE is a plan auto-named by plan_write in plans/.
var generatedPlanRE = regexp.MustCompile(`^plans/[a-z]+-[a-z]+-[a-z]+\.plan$`)

// planToolResult decodes the rawOutput of the tool_call_update of call id.
func planToolResult(h *lsptest.Env, id string) (ok bool, result json.RawMessage, errText string) {
	h.T.Helper()
	for _, u := range lsptest.Updates[agent.UpdateToolCallDone](h, "tool_call_update") {
		if u.ToolCallID != id {
			continue
		}
		b := u.RawOutput
		var out struct {
			Success bool            `json:"success"`
			Result  json.RawMessage `json:"result"`
			Error   string          `json:"error"`
		}
		if err := json.Unmarshal(b, &out); err != nil {
			h.T.Fatalf("rawOutput of %s: %v (%s)", id, err, b)
		}
		return out.Success, out.Result, out.Error
	}
	h.T.Fatalf("no tool_call_update for %s", id)
	return false, nil, ""
}

// appliedEdit is a workspace/applyEdit request as the editor received it.
type appliedEdit struct {
	Label string `json:"label"`
	Edit  struct {
		DocumentChanges []struct {
			Kind         string `json:"kind"`
			URI          string `json:"uri"`
			TextDocument *struct {
				URI string `json:"uri"`
			} `json:"textDocument"`
			Edits []workspace.TextEdit `json:"edits"`
		} `json:"documentChanges"`
	} `json:"edit"`
}

func appliedEdits(h *lsptest.Env) []appliedEdit {
	var out []appliedEdit
	for _, raw := range h.Messages("workspace/applyEdit") {
		var e appliedEdit
		if err := json.Unmarshal(raw, &e); err != nil {
			h.T.Fatalf("applyEdit: %v", err)
		}
		out = append(out, e)
	}
	return out
}

// goldenStructuredBody is the body (after the frontmatter) of the rendered
// structured plan golden file of the plan_write unit tests.
func goldenStructuredBody(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "agent", "tools", "testdata", "structured.plan.golden"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := workspace.ParsePlan(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return p.Body
}

func TestPlanToolsThroughTheEditor(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "plans"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A .plan symlink to a source file: the guard must see through it.
	if err := os.Symlink(filepath.Join("..", "main.go"), filepath.Join(dir, "plans", "evil.plan")); err != nil {
		t.Fatal(err)
	}
	const keep = "---\ntitle: Keep\nstatus: approved\ncreated_at: 2024-01-01T00:00:00Z\n---\n## Steps\n- [ ] keep\n"
	h := lsptest.Start(t, lsptest.Setup{
		Dir: dir,
		Files: map[string]string{
			"main.go":         "package main\n",
			"plans/keep.plan": keep,
			"plans/old.plan":  "# Old plan without frontmatter\n- [ ] only step\n",
		},
		Script: `
name: plan-tools
steps:
  - tool_calls:
      - {id: w, name: plan_write, args: ` + structuredPlanArgs + `}
  - tool_calls:
      - {id: r, name: plan_read, args: {}}
      - {id: old, name: plan_read, args: {name: old}}
      - {id: l, name: plan_list, args: {status: draft}}
      - {id: stale, name: plan_edit, args: {path: plans/keep.plan, old_string: "- [ ] keep", new_string: "- [x] keep", last_read_hash: "0000000000000000"}}
      - {id: src, name: plan_edit, args: {path: main.go, old_string: package, new_string: pkg}}
      - {id: evil, name: plan_write, args: {title: Evil, content: "pwned\n", path: plans/evil.plan}}
  - text: planned
`,
	})
	s := h.NewSession("plan")
	if r := h.Prompt(s.SessionID, "plan a login"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", r)
	}
	if h.Model.Remaining() != 0 {
		t.Fatalf("script has %d steps left", h.Model.Remaining())
	}

	// plan_write: a new, generated name; path, hash and metadata returned.
	ok, raw, errText := planToolResult(h, "w")
	if !ok {
		t.Fatalf("plan_write failed: %s", errText)
	}
	var w struct {
		Path     string `json:"path"`
		Created  bool   `json:"created"`
		Hash     string `json:"hash"`
		Steps    int    `json:"steps"`
		Metadata struct {
			Title, Status string
			CreatedAt     string `json:"created_at"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		t.Fatal(err)
	}
	if !generatedPlanRE.MatchString(w.Path) || !w.Created || w.Steps != 3 ||
		w.Metadata.Title != "Let users log in with a JWT." || w.Metadata.Status != "draft" || w.Metadata.CreatedAt == "" {
		t.Fatalf("plan_write result = %s", raw)
	}
	text := h.Read(w.Path)
	if w.Hash != workspace.Hash(text) {
		t.Fatalf("hash %s is not the hash of the written plan", w.Hash)
	}
	plan, err := workspace.ParsePlan(text)
	if err != nil || plan.Meta == nil || plan.Meta.Status != agentproto.PlanDraft || plan.Meta.Title != w.Metadata.Title {
		t.Fatalf("written plan parses as %+v (%v):\n%s", plan.Meta, err, text)
	}
	if want := goldenStructuredBody(t); plan.Body != want {
		t.Fatalf("rendered body =\n%s\nwant (structured.plan.golden)\n%s", plan.Body, want)
	}
	if diags := workspace.LintPlan(text); len(diags) != 2 { // no Files, no Verification: style only
		t.Fatalf("the rendered plan lints as %+v", diags)
	}

	// It reached the editor as workspace/applyEdit: a create, then the text.
	edits := appliedEdits(h)
	if len(edits) != 1 {
		t.Fatalf("%d applyEdit requests, want only plan_write's: %+v", len(edits), edits)
	}
	dc := edits[0].Edit.DocumentChanges
	if len(dc) != 2 || dc[0].Kind != "create" || dc[0].URI != h.Editor.URI(w.Path) ||
		dc[1].TextDocument == nil || dc[1].TextDocument.URI != h.Editor.URI(w.Path) || len(dc[1].Edits) != 1 || dc[1].Edits[0].NewText != text {
		t.Fatalf("applyEdit = %+v", edits[0])
	}
	if !strings.Contains(edits[0].Label, w.Path) {
		t.Fatalf("applyEdit label %q does not name the plan", edits[0].Label)
	}

	// plan_read of the attached plan, of a legacy plan by name; plan_list.
	ok, raw, errText = planToolResult(h, "r")
	var r struct {
		Path       string          `json:"path"`
		Content    string          `json:"content"`
		Hash       string          `json:"hash"`
		Metadata   json.RawMessage `json:"metadata"`
		Attached   bool            `json:"attached"`
		StepsTotal int             `json:"steps_total"`
	}
	if err := json.Unmarshal(raw, &r); !ok || err != nil {
		t.Fatalf("plan_read: %s %v", errText, err)
	}
	if r.Path != w.Path || !r.Attached || r.StepsTotal != 3 || r.Hash != w.Hash || !strings.Contains(string(r.Metadata), `"status":"draft"`) {
		t.Fatalf("plan_read of the attached plan = %s", raw)
	}
	ok, raw, errText = planToolResult(h, "old")
	if err := json.Unmarshal(raw, &r); !ok || err != nil {
		t.Fatalf("plan_read by name: %s %v", errText, err)
	}
	if r.Path != "plans/old.plan" || string(r.Metadata) != "null" || !strings.Contains(r.Content, "# Old plan without frontmatter") || !strings.Contains(r.Content, "- [ ] only step") {
		t.Fatalf("plan_read of the legacy plan = %s", raw)
	}
	ok, raw, errText = planToolResult(h, "l")
	var l struct {
		Plans []struct {
			Path, Name string
			Metadata   *struct{ Status string }
		} `json:"plans"`
		Total int `json:"total"`
	}
	if err := json.Unmarshal(raw, &l); !ok || err != nil {
		t.Fatalf("plan_list: %s %v", errText, err)
	}
	if l.Total != 1 || len(l.Plans) != 1 || l.Plans[0].Path != w.Path ||
		l.Plans[0].Name != strings.TrimSuffix(path.Base(w.Path), ".plan") ||
		l.Plans[0].Metadata == nil || l.Plans[0].Metadata.Status != "draft" {
		t.Fatalf("plan_list {status: draft} = %s", raw)
	}

	// plan_edit: a stale hash is a conflict; a source file is refused by the
	// guard, and so is a .plan symlink to one.
	if ok, _, errText = planToolResult(h, "stale"); ok || !strings.Contains(errText, "changed since you read it") {
		t.Fatalf("plan_edit with a stale hash: ok=%v %q", ok, errText)
	}
	for _, id := range []string{"src", "evil"} {
		if ok, _, errText = planToolResult(h, id); ok || !strings.Contains(errText, "System is in Plan Mode") {
			t.Fatalf("%s: ok=%v %q, want the plan-mode refusal", id, ok, errText)
		}
	}
	if h.Read("main.go") != "package main\n" || h.Read("plans/keep.plan") != keep {
		t.Fatal("a refused or failed plan tool changed a file")
	}

	// The plan update: the model's write attached the plan.
	n := awaitPlanUpdate(h, s.SessionID, 0, w.Path+": [ ] Add the JWT middleware | [ ] Add the login route | [ ] Document the new endpoint") + 1

	// The user ticks the first step in the editor (plan mode: no status change).
	if err := h.Editor.Open(h.Ctx, w.Path, text); err != nil {
		t.Fatal(err)
	}
	line := uint32(slices.Index(strings.Split(text, "\n"), "- [ ] Add the JWT middleware"))
	if err := h.Editor.Change(h.Ctx, w.Path, workspace.TextEdit{Range: workspace.Range{Start: pos(line, 3), End: pos(line, 4)}, NewText: "x"}); err != nil {
		t.Fatal(err)
	}
	awaitPlanUpdate(h, s.SessionID, n, w.Path+": [x] Add the JWT middleware | [>] Add the login route | [ ] Document the new endpoint")
	if err := h.Editor.Save(h.Ctx, w.Path); err != nil {
		t.Fatal(err)
	}
	if err := h.Editor.CloseDocument(h.Ctx, w.Path); err != nil {
		t.Fatal(err)
	}
	ticked := strings.Replace(text, "- [ ] Add the JWT middleware", "- [x] Add the JWT middleware", 1)
	if got := h.Read(w.Path); got != ticked {
		t.Fatalf("saved plan =\n%s\nwant\n%s", got, ticked)
	}

	// The user's switch to build approves the attached plan: only the status
	// line changes, through the editor.
	var info agentproto.Session
	if err := h.Editor.Call(h.Ctx, "agent/setMode", map[string]any{"sessionId": s.SessionID, "mode": "build"}, &info); err != nil {
		t.Fatal(err)
	}
	if info.Mode != "build" || info.PlanFile == nil || *info.PlanFile != w.Path {
		t.Fatalf("setMode = %+v", info)
	}
	if got, want := h.Read(w.Path), strings.Replace(ticked, "status: draft\n", "status: approved\n", 1); got != want {
		t.Fatalf("approved plan =\n%s\nwant\n%s", got, want)
	}
	if n := countContaining(applyEditLabels(h), "approved"); n != 1 {
		t.Fatalf("%d applyEdit marking the plan approved, want 1: %q", n, applyEditLabels(h))
	}
	if got := renderLenses(lensesOf(h, w.Path)); !slices.Equal(got, []string{
		`Status: approved → agentls.showPlan {"path":"` + w.Path + `"}`, `1/3 steps done → agentls.showPlan {"path":"` + w.Path + `"}`, `Archive → agentls.archivePlan {"path":"` + w.Path + `"}`,
	}) {
		t.Fatalf("lenses = %q", got)
	}
}

// TestInitializeDeclaresCodeLenses: the initialize result declares the
// code lens provider; its lenses come resolved (TestExecuteCommands checks
// the declared commands).
func TestInitializeDeclaresCodeLenses(t *testing.T) {
	t.Parallel()
	var caps struct {
		CodeLensProvider *struct {
			ResolveProvider bool `json:"resolveProvider"`
		} `json:"codeLensProvider"`
	}
	initializeCapabilities(t, &caps)
	if caps.CodeLensProvider == nil || caps.CodeLensProvider.ResolveProvider {
		t.Fatalf("codeLensProvider = %+v, want one whose lenses need no resolve", caps.CodeLensProvider)
	}
}
