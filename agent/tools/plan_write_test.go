package tools

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/golden"

	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

var fixedNow = time.Date(2025, 1, 15, 10, 30, 0, 0, time.UTC)

// seeded returns plan_write with a fixed clock and random seed.
func seeded(seed uint64) Tool {
	return planWriter{
		now:     func() time.Time { return fixedNow },
		newRand: func() *rand.Rand { return rand.New(rand.NewPCG(seed, seed)) },
	}.tool()
}

var planNameRE = regexp.MustCompile(`^plans/[a-z]+-[a-z]+-[a-z]+\.plan$`)

func TestPlanWriteMarkdown(t *testing.T) {
	t.Parallel()
	env := newFake(t, nil)
	env.setMode(agentproto.ModePlan)
	r := call(t, seeded(1), env, `{"title":"Add auth","content":"# Goal\n\nAuth.\n\n## Steps\n\n- [ ] Add middleware\n- [ ] Add route\n"}`)
	var got PlanWriteOutput
	value(t, r, &got)
	if !planNameRE.MatchString(got.Path) {
		t.Errorf("path %q is not an auto-named plan in plans/", got.Path)
	}
	meta := workspace.PlanMeta{Title: "Add auth", Status: agentproto.PlanDraft, CreatedAt: fixedNow}
	want := workspace.RenderPlan(meta, "# Goal\n\nAuth.\n\n## Steps\n\n- [ ] Add middleware\n- [ ] Add route\n")
	if disk := env.file(got.Path); disk != want {
		t.Errorf("file =\n%s\nwant\n%s", disk, want)
	}
	wantOut := PlanWriteOutput{
		Path: got.Path, Created: true, Hash: workspace.Hash(want), Steps: 2,
		Metadata: PlanMetadata{Title: "Add auth", Status: "draft", CreatedAt: "2025-01-15T10:30:00Z"},
	}
	if got != wantOut {
		t.Errorf("result = %+v\nwant     %+v", got, wantOut)
	}
	// The plan went through Env.Apply (the guard and the editor), as a new file.
	if len(env.applied) != 1 || env.applied[0].tool != "plan_write" || len(env.applied[0].changes) != 1 ||
		env.applied[0].changes[0].Kind != workspace.ChangeCreate || env.applied[0].changes[0].After != want {
		t.Errorf("applied = %+v, want one plan_write creating the plan", env.applied)
	}
	if env.written[got.Path] != want {
		t.Errorf("PlanWritten not recorded with the plan's text: %q", env.written)
	}
}

// TestPlanWriteStructuredGolden renders structured plans into
// testdata/*.plan.golden (go test ./agent/tools -run StructuredGolden
// -update rewrites them): the form of the tool's schema, and the JSON plan
// of the seed documents as a model that thinks in JSON plans sends it
// (step_number, estimated_total_time).
func TestPlanWriteStructuredGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		golden string
		args   string
		title  string
		steps  []string
	}{
		{
			golden: "structured.plan.golden",
			args: `{
				"goal": "Let users log in with a JWT.\nSessions stay as they are.",
				"steps": [
					{"action": "Add the JWT middleware", "reason": "every protected route needs it", "tools_needed": ["edit", "go test"], "estimated_time": "30 min"},
					{"action": "Add the login route"},
					{"action": "Document the\nnew endpoint", "reason": "  "}
				],
				"risks": ["Clock skew breaks token expiry", ""],
				"prerequisites": ["A signing key in the environment"],
				"path": "plans/auth.plan",
				"status": "draft"
			}`,
			title: "Let users log in with a JWT.",
			steps: []string{"Add the JWT middleware", "Add the login route", "Document the new endpoint"},
		},
		{
			golden: "structured_seed.plan.golden",
			args: `{
				"title": "Rename the config loader",
				"goal": "Rename LoadCfg to LoadConfig everywhere",
				"steps": [
					{"step_number": 1, "action": "Find every caller", "reason": "Know the blast radius", "tools_needed": ["grep"], "estimated_time": "5 minutes"},
					{"step_number": 2, "action": "Rename the function and its callers", "reason": "The actual change", "tools_needed": ["edit"], "estimated_time": "10 minutes"},
					{"step_number": 3, "action": "Run the tests", "reason": "Prove nothing broke", "tools_needed": ["run"], "estimated_time": "2 minutes"}
				],
				"estimated_total_time": "about 20 minutes",
				"risks": ["Reflection-based callers are missed by grep"],
				"prerequisites": ["A clean working tree"],
				"path": "plans/rename.plan"
			}`,
			title: "Rename the config loader",
			steps: []string{"Find every caller", "Rename the function and its callers", "Run the tests"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			env := newFake(t, nil)
			var got PlanWriteOutput
			value(t, call(t, seeded(1), env, tt.args), &got)
			if got.Steps != len(tt.steps) || got.Metadata.Title != tt.title || got.Metadata.Status != "draft" {
				t.Errorf("result = %+v", got)
			}
			text := env.file(got.Path)
			golden.Check(t, filepath.Join("testdata", tt.golden), text)
			pl, err := workspace.ParsePlan(text)
			if err != nil || pl.Meta == nil {
				t.Fatalf("rendered plan parses as %+v, %v", pl, err)
			}
			var steps []string
			for _, st := range pl.Steps {
				steps = append(steps, st.Text)
			}
			if !slices.Equal(steps, tt.steps) {
				t.Errorf("steps = %q, want %q", steps, tt.steps)
			}
			// Only style warnings: a rendered plan is a valid plan.
			for _, d := range workspace.LintPlan(text) {
				if d.Severity != workspace.PlanSeverityWarning {
					t.Errorf("rendered plan lints with %+v", d)
				}
			}
		})
	}
}

func TestPlanWriteNeverOverwrites(t *testing.T) {
	t.Parallel()
	first := workspace.NewPlanName(rand.New(rand.NewPCG(7, 7)), func(string) bool { return false })
	env := newFake(t, map[string]string{"plans/" + first + ".plan": "precious\n"})
	var got PlanWriteOutput
	value(t, call(t, seeded(7), env, `{"title":"T","content":"body\n"}`), &got)
	if got.Path == "plans/"+first+".plan" || !got.Created {
		t.Fatalf("plan_write chose the existing name %s: %+v", first, got)
	}
	if env.file("plans/"+first+".plan") != "precious\n" {
		t.Errorf("the existing plan was overwritten")
	}

	// A plan that exists only as an editor buffer is taken too.
	env2 := newFake(t, nil)
	env2.ws.Overlay().Open(env2.path("plans/"+first+".plan"), 1, "unsaved\n")
	value(t, call(t, seeded(7), env2, `{"title":"T","content":"body\n"}`), &got)
	if got.Path == "plans/"+first+".plan" {
		t.Errorf("plan_write chose a name held by an editor buffer: %s", got.Path)
	}
}

// TestPlanWriteNamesNeverCollide: every call draws the same names (same
// seed), so each must step past the plans the earlier calls created.
func TestPlanWriteNamesNeverCollide(t *testing.T) {
	t.Parallel()
	env := newFake(t, nil)
	env.setMode(agentproto.ModePlan)
	seen := map[string]bool{}
	for i := range 30 {
		var got PlanWriteOutput
		value(t, call(t, seeded(9), env, `{"title":"T","content":`+quote(fmt.Sprintf("plan %d\n", i))+`}`), &got)
		if seen[got.Path] || !got.Created || !planNameRE.MatchString(got.Path) {
			t.Fatalf("call %d: %+v (names so far %v)", i, got, seen)
		}
		seen[got.Path] = true
	}
	// No plan was overwritten: each still holds its own body.
	bodies := map[string]bool{}
	for p := range seen {
		pl, err := workspace.ParsePlan(env.file(p))
		if err != nil || !strings.HasPrefix(pl.Body, "plan ") {
			t.Errorf("%s = %q", p, env.file(p))
		}
		bodies[pl.Body] = true
	}
	if len(bodies) != 30 {
		t.Errorf("%d distinct plans on disk, want 30", len(bodies))
	}
	if len(env.applied) != 30 {
		t.Errorf("%d applied changes, want 30 creations", len(env.applied))
	}
}

func TestPlanWriteCustomPlansDir(t *testing.T) {
	t.Parallel()
	env := newFake(t, nil)
	env.cfg.PlanMode.PlansDir = "docs/plans/"
	env.g = guard.New(env.ws, "docs/plans", declared(t))
	env.setMode(agentproto.ModePlan)
	var got PlanWriteOutput
	value(t, call(t, seeded(3), env, `{"title":"T","content":"body\n"}`), &got)
	if !strings.HasPrefix(got.Path, "docs/plans/") || !strings.HasSuffix(got.Path, ".plan") {
		t.Errorf("path = %q, want a plan in docs/plans/", got.Path)
	}
}

func TestPlanWriteRewriteKeepsCreatedAt(t *testing.T) {
	t.Parallel()
	old := "---\ntitle: Old\nstatus: approved\ncreated_at: 2024-03-01T08:00:00Z\n---\n# Old\n"
	env := newFake(t, map[string]string{"plans/a.plan": old})
	var got PlanWriteOutput
	value(t, call(t, seeded(1), env, `{"title":"New","content":"# New\n","path":"plans/a.plan"}`), &got)
	want := PlanMetadata{Title: "New", Status: "draft", CreatedAt: "2024-03-01T08:00:00Z"}
	if got.Metadata != want || got.Created {
		t.Errorf("result = %+v, want metadata %+v and created false", got, want)
	}
	pl, err := workspace.ParsePlan(env.file("plans/a.plan"))
	if err != nil || pl.Meta == nil || pl.Meta.Title != "New" || !pl.Meta.CreatedAt.Equal(time.Date(2024, 3, 1, 8, 0, 0, 0, time.UTC)) {
		t.Errorf("rewritten plan = %+v, %v", pl.Meta, err)
	}
}

func TestPlanWriteStripsModelFrontmatter(t *testing.T) {
	t.Parallel()
	env := newFake(t, nil)
	content := "---\ntitle: Mine\nstatus: draft\ncreated_at: 2020-01-01T00:00:00Z\n---\n# Goal\n"
	var got PlanWriteOutput
	value(t, call(t, seeded(1), env, `{"title":"T","content":`+quote(content)+`,"path":"p.plan","status":"approved"}`), &got)
	text := env.file("p.plan")
	if strings.Count(text, "---\n") != 2 || !strings.HasSuffix(text, "# Goal\n") {
		t.Errorf("plan has doubled frontmatter:\n%s", text)
	}
	if got.Metadata.Title != "T" || got.Metadata.Status != "approved" {
		t.Errorf("metadata = %+v", got.Metadata)
	}
}

func TestPlanWriteErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		mode      agentproto.Mode
		args      string
		wantError []string
	}{
		{name: "neither form", args: `{"title":"T"}`, wantError: []string{"give title and content"}},
		{name: "both forms", args: `{"title":"T","content":"x","goal":"g","steps":[{"action":"a"}]}`, wantError: []string{"not both"}},
		{name: "no title", args: `{"content":"x"}`, wantError: []string{"title is required"}},
		{name: "blank content", args: `{"title":"T","content":"\n  "}`, wantError: []string{"content is empty"}},
		{name: "no goal", args: `{"steps":[{"action":"a"}]}`, wantError: []string{"goal is required"}},
		{name: "no steps", args: `{"goal":"g","steps":[]}`, wantError: []string{"at least one step"}},
		{name: "steps missing", args: `{"goal":"g"}`, wantError: []string{"at least one step"}},
		{name: "empty action", args: `{"goal":"g","steps":[{"action":"a"},{"action":" ","reason":"r"}]}`, wantError: []string{"steps[1].action is required"}},
		{name: "repeated action", args: `{"goal":"g","steps":[{"action":"Add  tests"},{"action":"b"},{"action":"add tests"}]}`, wantError: []string{"steps[2].action repeats steps[0]"}},
		{name: "unknown step field", args: `{"goal":"g","steps":[{"action":"a","owner":"me"}]}`, wantError: []string{"invalid arguments", "owner"}},
		{name: "bad status", args: `{"title":"T","content":"x","status":"done"}`, wantError: []string{`status "done" is not valid`, "draft, approved"}},
		{name: "not a .plan path", args: `{"title":"T","content":"x","path":"plans/x.md"}`, wantError: []string{"must name a .plan file"}},
		{name: "upper-case extension", args: `{"title":"T","content":"x","path":"plans/x.PLAN"}`, wantError: []string{"must name a .plan file"}},
		{name: "a folder", args: `{"title":"T","content":"x","path":"plans"}`, wantError: []string{"must name a .plan file"}},
		{name: "outside", args: `{"title":"T","content":"x","path":"../x.plan"}`, wantError: []string{"outside the workspace"}},
		{name: "approved in plan mode", mode: agentproto.ModePlan, args: `{"title":"T","content":"x","status":"approved"}`, wantError: []string{"status approved cannot be set in plan mode", "exit_plan_mode"}},
		{name: "implemented in plan mode", mode: agentproto.ModePlan, args: `{"title":"T","content":"x","path":"plans/keep.plan","status":"implemented"}`, wantError: []string{"status implemented cannot be set in plan mode"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newFake(t, map[string]string{"plans/keep.plan": "# Keep\n"})
			if tt.mode != "" {
				env.setMode(tt.mode)
			}
			r := call(t, seeded(1), env, tt.args)
			wantFail(t, r, tt.wantError...)
			if len(env.applied) != 0 || len(env.written) != 0 {
				t.Errorf("a failed plan_write applied %+v / recorded %v", env.applied, env.written)
			}
		})
	}
}

// quote is s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
