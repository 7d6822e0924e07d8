package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/golden"
)

// planListTime is the modification time every file of the listing
// fixtures gets unless its setup changes it: equal timestamps everywhere.
var planListTime = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// planListFiles is a plans folder with every case the listing rules decide:
// plans with and without frontmatter, equal created_at and modification
// times, a broken frontmatter, a non-.plan file, a subfolder, a .git folder
// inside the plans folder, and a folder whose name ends in .plan.
var planListFiles = map[string]string{
	"src/main.go":                "package main\n",
	".git/config":                "[core]\n",
	"plans/a-first.plan":         "---\ntitle: First\nstatus: draft\ncreated_at: 2025-01-02T00:00:00Z\n---\n- [x] one\n- [ ] two\n",
	"plans/b-same-time.plan":     "---\ntitle: Same time\nstatus: approved\ncreated_at: 2025-01-02T00:00:00Z\n---\n- [ ] one\n",
	"plans/newest.plan":          "---\ntitle: Newest\nstatus: implemented\ncreated_at: 2025-02-01T00:00:00Z\n---\n- [x] done\n",
	"plans/legacy.plan":          "# A legacy plan\n- [ ] only step\n",
	"plans/broken.plan":          "---\ntitle: [unclosed\nstatus: draft\n---\n- [ ] still a step\n",
	"plans/notes.md":             "# not a plan\n",
	"plans/sub/nested.plan":      "---\ntitle: Nested\nstatus: archived\ncreated_at: 2024-12-01T00:00:00Z\n---\n",
	"plans/.git/hidden.plan":     "---\ntitle: In .git\nstatus: draft\n---\n",
	"plans/.JJ/hidden.plan":      "---\ntitle: In .jj\nstatus: draft\n---\n",
	"plans/.Agentls/hidden.plan": "---\ntitle: In .agentls\nstatus: draft\n---\n",
	"plans/folder.plan/in.plan":  "---\ntitle: In a folder named .plan\nstatus: draft\ncreated_at: 2024-11-01T00:00:00Z\n---\n",
}

// planListSymlinks are `.plan` names that are symlinks: to a source file, out
// of the workspace, into .git, to another plan, and dangling.
var planListSymlinks = map[string]string{
	"plans/to-source.plan":  "../src/main.go",
	"plans/outside.plan":    "/etc/hostname",
	"plans/into-git.plan":   "../.git/config",
	"plans/to-plan.plan":    "newest.plan",
	"plans/dangling.plan":   "gone.plan",
	"plans/sub-link":        "sub",
	"plans/sub/parent.plan": "../a-first.plan",
}

// writePlanListFixture writes files and symlinks under root and gives every
// entry planListTime, then the changes of mtimes (path → time).
func writePlanListFixture(t *testing.T, root string, files, links map[string]string, mtimes map[string]time.Time) {
	t.Helper()
	writeTree(t, root, files)
	for p, target := range links {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.FromSlash(target), abs); err != nil {
			t.Fatal(err)
		}
	}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.Type()&os.ModeSymlink != 0 {
			return err
		}
		return os.Chtimes(p, planListTime, planListTime)
	})
	if err != nil {
		t.Fatal(err)
	}
	for p, tm := range mtimes {
		if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(p)), tm, tm); err != nil {
			t.Fatal(err)
		}
	}
}

// renderListedPlans is the golden form of a listing: one plan a line.
func renderListedPlans(root string, plans []ListedPlan, err error) string {
	var b strings.Builder
	for _, p := range plans {
		fmt.Fprintf(&b, "%s name=%s status=%q created=%s mod=%s steps=%d/%d",
			p.Path.Rel, p.Name, p.Status(), p.Created().UTC().Format(time.RFC3339), p.ModTime.UTC().Format(time.RFC3339),
			p.Plan.StepsDone(), len(p.Plan.Steps))
		if p.Plan.Meta != nil {
			fmt.Fprintf(&b, " title=%q", p.Plan.Meta.Title)
		}
		if p.Err != nil {
			fmt.Fprintf(&b, " error=%q", p.Err.Error())
		}
		b.WriteString("\n")
	}
	if err != nil {
		msg := strings.ReplaceAll(err.Error(), root, "$WORKSPACE")
		fmt.Fprintf(&b, "error: %s\n", strings.ReplaceAll(msg, filepath.Dir(root), "$TMP"))
	}
	return b.String()
}

func TestListPlans(t *testing.T) {
	tests := []struct {
		name   string
		dir    string
		files  map[string]string
		links  map[string]string
		mtimes map[string]time.Time
	}{
		{name: "mixed", dir: "plans", files: planListFiles, links: planListSymlinks,
			// The legacy plan is dated by its modification time.
			mtimes: map[string]time.Time{"plans/legacy.plan": time.Date(2025, 1, 15, 0, 0, 0, 0, time.UTC)}},
		{name: "equal created_at then modification time", dir: "plans",
			files: map[string]string{
				"plans/a.plan": "---\ntitle: A\nstatus: draft\ncreated_at: 2025-01-02T00:00:00Z\n---\n",
				"plans/b.plan": "---\ntitle: B\nstatus: draft\ncreated_at: 2025-01-02T00:00:00Z\n---\n",
			},
			mtimes: map[string]time.Time{"plans/a.plan": planListTime.Add(time.Hour)}},
		{name: "nested plans folder", dir: "docs/plans",
			files: map[string]string{"docs/plans/x.plan": "# X\n", "plans/y.plan": "# not in the plans folder\n"}},
		{name: "missing plans folder", dir: "plans", files: map[string]string{"src/main.go": "package main\n"}},
		{name: "empty plans folder", dir: "plans", files: map[string]string{"plans/": ""}},
		{name: "plans folder is a file", dir: "plans", files: map[string]string{"plans": "not a folder\n"}},
		{name: "plans folder through a symlink", dir: "plans",
			files: map[string]string{"docs/x.plan": "# X\n"}, links: map[string]string{"plans": "docs"}},
		{name: "plans folder a symlink out of the workspace", dir: "plans",
			links: map[string]string{"plans": "/etc"}},
		{name: "plans folder outside", dir: "../elsewhere", files: map[string]string{"plans/x.plan": "# X\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			root := filepath.Join(dir, "ws")
			if err := os.Mkdir(root, 0o755); err != nil {
				t.Fatal(err)
			}
			writePlanListFixture(t, root, tt.files, tt.links, tt.mtimes)
			ws, err := New(root)
			if err != nil {
				t.Fatal(err)
			}
			plans, err := ws.ListPlans(tt.dir)
			if err != nil && plans != nil {
				t.Fatalf("ListPlans returned plans with its error %v", err)
			}
			got := renderListedPlans(ws.Root(), plans, err)
			file := filepath.Join("testdata", "planlist", strings.ReplaceAll(tt.name, " ", "_")+".golden")
			golden.Check(t, file, got)
		})
	}
}

// TestListPlansUnreadableSubfolder: a subfolder that cannot be read is an
// error naming it, not a silently shorter list.
func TestListPlansUnreadableSubfolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every folder")
	}
	ws := newTestWorkspace(t, map[string]string{"plans/a.plan": "# A\n", "plans/locked/b.plan": "# B\n"})
	locked := filepath.Join(ws.Root(), "plans", "locked")
	if err := os.Chmod(locked, 0o000); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	plans, err := ws.ListPlans("plans")
	if err == nil || !strings.Contains(err.Error(), "plans/locked") || plans != nil {
		t.Fatalf("ListPlans = %v, %v; want an error naming plans/locked", plans, err)
	}
}

// TestListPlansReadsEditorBuffers: the listing reads a plan's open editor
// buffer, as every plan tool does, not the disk behind it.
func TestListPlansReadsEditorBuffers(t *testing.T) {
	ws := newTestWorkspace(t, map[string]string{"plans/a.plan": "---\ntitle: On disk\nstatus: draft\n---\n"})
	p := mustResolve(t, ws, "plans/a.plan")
	ws.Overlay().Open(p.Abs, 1, "---\ntitle: In the editor\nstatus: approved\n---\n")
	plans, err := ws.ListPlans("plans")
	if err != nil || len(plans) != 1 || plans[0].Plan.Meta == nil || plans[0].Plan.Meta.Title != "In the editor" || plans[0].Status() != agentproto.PlanApproved {
		t.Fatalf("ListPlans = %+v, %v", plans, err)
	}
}

func TestSelectPlans(t *testing.T) {
	meta := func(s agentproto.PlanStatus) Plan { return Plan{Meta: &PlanMeta{Status: s}} }
	plans := []ListedPlan{
		{Name: "a", Plan: meta(agentproto.PlanDraft)}, {Name: "b", Plan: meta(agentproto.PlanApproved)},
		{Name: "c"}, {Name: "d", Plan: meta(agentproto.PlanDraft)}, {Name: "e", Plan: meta(agentproto.PlanDraft)},
	}
	names := func(ps []ListedPlan) string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Name)
		}
		return strings.Join(out, ",")
	}
	tests := []struct {
		status    agentproto.PlanStatus
		limit     int
		want      string
		wantTotal int
	}{
		{"", 0, "a,b,c,d,e", 5},
		{"", 2, "a,b", 5},
		{agentproto.PlanDraft, 0, "a,d,e", 3},
		{agentproto.PlanDraft, 2, "a,d", 3},
		{agentproto.PlanArchived, 0, "", 0},
		{"", -1, "a,b,c,d,e", 5},
	}
	for _, tt := range tests {
		got, total := SelectPlans(plans, tt.status, tt.limit)
		if names(got) != tt.want || total != tt.wantTotal {
			t.Errorf("SelectPlans(%q, %d) = %s (%d), want %s (%d)", tt.status, tt.limit, names(got), total, tt.want, tt.wantTotal)
		}
	}
}
