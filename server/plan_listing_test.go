package server_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// This file proves that the editor and the model see one list of plans:
// agent/listPlans (through the fake editor) and the plan_list tool (called
// by the scripted model in the same server) list the same plans folder, with
// the same rule, errors and order (workspace.ListPlans).

// listingFiles is a plans folder with a broken frontmatter, a legacy plan,
// a non-.plan file, a subfolder, and two plans whose created_at and
// modification time are equal (the path decides).
var listingFiles = map[string]string{
	"main.go":                 "package main\n",
	".git/config":             "[core]\n",
	"plans/b-same.plan":       "---\ntitle: Same B\nstatus: draft\ncreated_at: 2025-01-02T00:00:00Z\n---\n- [ ] one\n",
	"plans/a-same.plan":       "---\ntitle: Same A\nstatus: draft\ncreated_at: 2025-01-02T00:00:00Z\n---\n- [x] one\n- [ ] two\n",
	"plans/newest.plan":       "---\ntitle: Newest\nstatus: approved\ncreated_at: 2025-02-01T00:00:00Z\n---\n- [x] done\n",
	"plans/legacy.plan":       "# Legacy plan\n- [ ] only step\n",
	"plans/broken.plan":       "---\ntitle: [unclosed\nstatus: draft\n---\n- [ ] a step\n",
	"plans/readme.md":         "# not a plan\n",
	"plans/sub/nested.plan":   "---\ntitle: Nested\nstatus: draft\ncreated_at: 2024-12-01T00:00:00Z\n---\n",
	"plans/.git/hidden.plan":  "---\ntitle: Hidden\nstatus: draft\n---\n",
	"plans/sub/notes/x.plan~": "backup\n",
}

// listingLinks are `.plan` names that are symlinks: to a source file, out
// of the workspace, into .git and to another plan.
var listingLinks = map[string]string{
	"plans/to-source.plan": "../main.go",
	"plans/outside.plan":   "/etc/hostname",
	"plans/into-git.plan":  "../.git/config",
	"plans/to-plan.plan":   "newest.plan",
}

// writeListingFixture writes the fixture into dir with equal modification
// times (the legacy and broken plans get their own).
func writeListingFixture(t *testing.T, dir string) {
	t.Helper()
	same := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	for p, content := range listingFiles {
		abs := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(abs, same, same); err != nil {
			t.Fatal(err)
		}
	}
	for p, tm := range map[string]time.Time{
		"plans/legacy.plan": time.Date(2025, 1, 20, 0, 0, 0, 0, time.UTC),
		"plans/broken.plan": time.Date(2025, 1, 10, 0, 0, 0, 0, time.UTC),
	} {
		if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(p)), tm, tm); err != nil {
			t.Fatal(err)
		}
	}
	for p, target := range listingLinks {
		if err := os.Symlink(filepath.FromSlash(target), filepath.Join(dir, filepath.FromSlash(p))); err != nil {
			t.Fatal(err)
		}
	}
}

// listedLine is one listed plan in the fields both listings report.
func listedLine(path, title, status, created string, done, total int, errText string) string {
	line := fmt.Sprintf("%s title=%q status=%q created=%q steps=%d/%d", path, title, status, created, done, total)
	if errText != "" {
		line += " error=" + errText
	}
	return line
}

// editorListing is agent/listPlans's answer to params, one line a plan.
func editorListing(h *lsptest.Env, params map[string]any) (lines []string, total int) {
	h.T.Helper()
	var res struct {
		Plans []struct {
			Path, Title, Status, CreatedAt string
			StepsDone, StepsTotal          int
			Error                          string
		} `json:"plans"`
		Total int `json:"total"`
	}
	if err := h.Editor.Call(h.Ctx, "agent/listPlans", params, &res); err != nil {
		h.T.Fatalf("agent/listPlans %v: %v", params, err)
	}
	for _, p := range res.Plans {
		lines = append(lines, listedLine(p.Path, p.Title, p.Status, p.CreatedAt, p.StepsDone, p.StepsTotal, p.Error))
	}
	return lines, res.Total
}

// modelListing is the result of plan_list call id, one line a plan.
func modelListing(h *lsptest.Env, id string) (lines []string, total int) {
	h.T.Helper()
	ok, raw, errText := planToolResult(h, id)
	if !ok {
		h.T.Fatalf("plan_list %s failed: %s", id, errText)
	}
	var res struct {
		Plans []struct {
			Path     string `json:"path"`
			Metadata *struct {
				Title, Status string
				CreatedAt     string `json:"created_at"`
			} `json:"metadata"`
			StepsDone  int    `json:"steps_done"`
			StepsTotal int    `json:"steps_total"`
			Error      string `json:"error"`
		} `json:"plans"`
		Total int `json:"total"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		h.T.Fatalf("plan_list %s: %v (%s)", id, err, raw)
	}
	for _, p := range res.Plans {
		var title, status, created string
		if m := p.Metadata; m != nil {
			title, status, created = m.Title, m.Status, m.CreatedAt
		}
		lines = append(lines, listedLine(p.Path, title, status, created, p.StepsDone, p.StepsTotal, p.Error))
	}
	return lines, res.Total
}

func TestEditorAndModelListTheSamePlans(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeListingFixture(t, dir)
	h := lsptest.Start(t, lsptest.Setup{Dir: dir, Script: `
name: plan-listing
steps:
  - tool_calls:
      - {id: all, name: plan_list, args: {}}
      - {id: drafts, name: plan_list, args: {status: draft}}
      - {id: first3, name: plan_list, args: {limit: 3}}
  - text: listed
`})
	s := h.NewSession("plan")
	if r := h.Prompt(s.SessionID, "list the plans"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", r)
	}
	const symlink = "a symlink, not followed: a plan must be a regular file in the plans folder"
	wantAll := []string{
		listedLine("plans/newest.plan", "Newest", "approved", "2025-02-01T00:00:00Z", 1, 1, ""),
		listedLine("plans/legacy.plan", "", "", "", 0, 1, ""),
		listedLine("plans/broken.plan", "", "", "", 0, 1, "frontmatter line 2: invalid YAML: did not find expected ',' or ']'"),
		listedLine("plans/a-same.plan", "Same A", "draft", "2025-01-02T00:00:00Z", 1, 2, ""),
		listedLine("plans/b-same.plan", "Same B", "draft", "2025-01-02T00:00:00Z", 0, 1, ""),
		listedLine("plans/sub/nested.plan", "Nested", "draft", "2024-12-01T00:00:00Z", 0, 0, ""),
		listedLine("plans/into-git.plan", "", "", "", 0, 0, symlink),
		listedLine("plans/outside.plan", "", "", "", 0, 0, symlink),
		listedLine("plans/to-plan.plan", "", "", "", 0, 0, symlink),
		listedLine("plans/to-source.plan", "", "", "", 0, 0, symlink),
	}
	tests := []struct {
		call      string
		params    map[string]any
		want      []string
		wantTotal int
	}{
		{"all", map[string]any{}, wantAll, len(wantAll)},
		{"drafts", map[string]any{"status": "draft"}, []string{wantAll[3], wantAll[4], wantAll[5]}, 3},
		{"first3", map[string]any{"limit": 3}, wantAll[:3], len(wantAll)},
	}
	for _, tt := range tests {
		t.Run(tt.call, func(t *testing.T) {
			editor, editorTotal := editorListing(h, tt.params)
			model, modelTotal := modelListing(h, tt.call)
			if got, want := strings.Join(editor, "\n"), strings.Join(model, "\n"); got != want || editorTotal != modelTotal {
				t.Fatalf("agent/listPlans (total %d):\n%s\nplan_list (total %d):\n%s", editorTotal, got, modelTotal, want)
			}
			if got, want := strings.Join(editor, "\n"), strings.Join(tt.want, "\n"); got != want || editorTotal != tt.wantTotal {
				t.Fatalf("both list (total %d):\n%s\nwant (total %d):\n%s", editorTotal, got, tt.wantTotal, want)
			}
		})
	}
}

// TestListingAPlansFolderThatCannotHoldPlans: a plans folder configured
// inside .git/ is refused by both listings with config's one error.
func TestListingAPlansFolderThatCannotHoldPlans(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Files:    map[string]string{".git/config": "[core]\n", ".git/plans/x.plan": "# in .git\n"},
		InitOpts: map[string]any{"plan_mode": map[string]any{"plans_dir": ".git/plans"}},
		Script: `
name: plan-listing-git
steps:
  - tool_calls:
      - {id: all, name: plan_list, args: {}}
  - text: listed
`})
	s := h.NewSession("plan")
	if r := h.Prompt(s.SessionID, "list the plans"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", r)
	}
	const want = `plan_mode.plans_dir ".git/plans" is inside .git/`
	err := h.Editor.Call(h.Ctx, "agent/listPlans", map[string]any{}, nil)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("agent/listPlans error = %v, want one containing %q", err, want)
	}
	if ok, _, errText := planToolResult(h, "all"); ok || !strings.Contains(errText, want) {
		t.Fatalf("plan_list: ok=%v %q, want an error containing %q", ok, errText, want)
	}
}

// TestServerPlanChangesNameTheSystem: the status changes the server makes
// (approved by "Approve & Build", archived by "Archive") reach the editor
// as workspace/applyEdit labelled with agentls's own identity,
// guard.SystemActor, not with a tool's name.
func TestServerPlanChangesNameTheSystem(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{Files: map[string]string{"plans/lens.plan": lensPlan}})
	if err := command(h, "agentls.buildPlan", map[string]any{"path": "plans/lens.plan"}, nil); err != nil {
		t.Fatalf("build: %v", err)
	}
	if err := command(h, "agentls.archivePlan", map[string]any{"path": "plans/lens.plan"}, nil); err != nil {
		t.Fatalf("archive: %v", err)
	}
	want := []string{
		guard.SystemActor + ": mark plan plans/lens.plan approved",
		guard.SystemActor + ": mark plan plans/lens.plan archived",
	}
	if got := applyEditLabels(h); !slices.Equal(got, want) {
		t.Fatalf("applyEdit labels = %q, want %q", got, want)
	}
}
