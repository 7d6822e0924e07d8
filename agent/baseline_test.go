package agent

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/golden"
	"github.com/agentls/agentls/sessionstore"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/guard"
)

// TestBuiltPlans: the plans being built come from the sessions in memory and
// from session files on disk alone (a restart, another server); a plan-mode
// session and a finished plan lock nothing.
func TestBuiltPlans(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, nil)
	ctx := context.Background()
	for _, rel := range []string{"plans/a.plan", "plans/b.plan", "plans/done.plan", "plans/draft.plan"} {
		writePlan(t, m, rel, planWithSteps)
	}
	writePlan(t, m, "plans/legacy.plan", "- [ ] no frontmatter\n")
	a1, err := m.BuildPlan(ctx, "plans/a.plan")
	if err != nil {
		t.Fatal(err)
	}
	a2, err := m.BuildPlan(ctx, "plans/a.plan")
	if err != nil {
		t.Fatal(err)
	}
	done, err := m.BuildPlan(ctx, "plans/done.plan")
	if err != nil {
		t.Fatal(err)
	}
	writePlan(t, m, "plans/done.plan", strings.Replace(planWithSteps, "status: draft", "status: implemented", 1))
	planner := newTestSession(t, m, "plan")
	planner.attachPlan("plans/draft.plan")
	now := time.Now()
	for _, meta := range []sessionstore.Meta{
		{ID: "disk-builder", Mode: "build", PlanFile: "plans/b.plan", CreatedAt: now, UpdatedAt: now},
		{ID: "disk-legacy", Mode: "build", PlanFile: "plans/legacy.plan", CreatedAt: now, UpdatedAt: now},
		{ID: "disk-planner", Mode: "plan", PlanFile: "plans/b.plan", CreatedAt: now, UpdatedAt: now},
	} {
		if err := m.store.Create(meta); err != nil {
			t.Fatal(err)
		}
	}
	got := m.BuiltPlans()
	ids := []string{a1.SessionID, a2.SessionID}
	if ids[0] > ids[1] {
		ids[0], ids[1] = ids[1], ids[0]
	}
	want := []guard.BuiltPlan{
		{Rel: "plans/a.plan", Builders: ids},
		{Rel: "plans/b.plan", Builders: []string{"disk-builder"}},
		{Rel: "plans/legacy.plan", Builders: []string{"disk-legacy"}}, // status unreadable: locked
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("BuiltPlans = %+v\nwant %+v (done: %s)", got, want, done.SessionID)
	}
	// The planner's state carries the locks: its write to a.plan is refused.
	st := planner.State()
	if st.Session != planner.ID() || st.Plans == nil {
		t.Fatalf("planner state %+v", st)
	}
	r := m.Guard().CheckCall(st, "plan_edit", []byte(`{"path":"plans/a.plan","old_string":"a","new_string":"b"}`))
	if r == nil || r.Reason != guard.ReasonPlanBuilt {
		t.Fatalf("planner's plan_edit of a.plan: %v", r)
	}
}

// TestChangedSinceApproval: the builder's own writes move the approved
// text; the user's change shows as "changed since approval" with a diff,
// is reported once as a plan update, and survives the builder's next write.
func TestChangedSinceApproval(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, nil)
	ctx := context.Background()
	abs := writePlan(t, m, "plans/a.plan", planWithSteps)
	info, err := m.BuildPlan(ctx, "plans/a.plan")
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.session(info.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	section := func() string { return s.approvedPlanSection("plans/a.plan") }
	if sec := section(); strings.Contains(sec, ChangedSinceApproval) {
		t.Fatalf("fresh approval marked:\n%s", sec)
	}
	// The builder's own write (status implemented included) is not a change.
	if err := m.setPlanStatus(ctx, s, "plans/a.plan", agentproto.PlanImplemented); err != nil {
		t.Fatal(err)
	}
	if sec := section(); strings.Contains(sec, ChangedSinceApproval) {
		t.Fatalf("own write marked:\n%s", sec)
	}
	// The user adds a step: marked, with a diff; one plan update per change.
	text := readText(t, abs)
	writePlan(t, m, "plans/a.plan", text+"- [ ] user step\n")
	n := len(ed.planUpdates())
	sec := section()
	if !strings.Contains(sec, "(changed since approval") || !strings.Contains(sec, "+- [ ] user step") {
		t.Fatalf("user change not shown:\n%s", sec)
	}
	section()
	if got := len(ed.planUpdates()) - n; got != 1 {
		t.Fatalf("%d plan updates for one change, want 1", got)
	}
	// After a restart (a new manager on the same workspace) it still shows.
	m.Close() // the old process is gone, and its session locks with it
	m2, err := NewManager(Options{Workspace: m.ws, Config: m.config(), Provider: m.Provider(), Editor: ed})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m2.Close)
	s2, err := m2.session(info.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if sec := s2.approvedPlanSection("plans/a.plan"); !strings.Contains(sec, "+- [ ] user step") {
		t.Fatalf("after a restart:\n%s", sec)
	}
}

func TestShortDiff(t *testing.T) {
	t.Parallel()
	var approved, current strings.Builder
	approved.WriteString("---\ntitle: T\nstatus: approved\n---\n## Steps\n")
	current.WriteString("---\ntitle: T\nstatus: approved\n---\n## Steps\n")
	for i := range 50 {
		line := "- [ ] step " + strings.Repeat("x", i%3) + string(rune('a'+i%26)) + "\n"
		approved.WriteString(line)
		if i%2 == 0 {
			current.WriteString("- [x]" + line[5:])
		} else {
			current.WriteString(line)
		}
	}
	got := shortDiff("plans/t.plan", approved.String(), current.String())
	golden.Check(t, filepath.Join("testdata", "short_diff.golden"), got)
	if t.Failed() {
		t.FailNow()
	}
	if n := strings.Count(got, "\n"); n != maxDiffLines+1 {
		t.Fatalf("%d lines, want %d (cut) + 1", n, maxDiffLines)
	}
	if shortDiff("p", "same\n", "same\n") != "" {
		t.Fatal("diff of equal texts")
	}
}

// TestReconfigure: a new configuration replaces the one in force whole:
// the settings, the guard's plans folder and the allow rules; a nil model
// keeps the model.
func TestReconfigure(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, model := newTestManager(t, noTurns, ed, nil)
	before := m.Guard()
	cfg := m.config()
	cfg.PlanMode.PlansDir = "docs/plans"
	cfg.Run.Allow = []string{"go test ./..."}
	m.Reconfigure(cfg, nil)
	if m.Provider() != model {
		t.Fatal("a nil model replaced the model")
	}
	if m.Guard() == before || m.Guard().PlansDir() != filepath.Join(m.ws.Root(), "docs", "plans") {
		t.Fatalf("guard plans folder = %s", m.Guard().PlansDir())
	}
	if m.config().PlanMode.PlansDir != "docs/plans" || m.plansDir() != "docs/plans" {
		t.Fatalf("config = %+v", m.config().PlanMode)
	}
	s := newTestSession(t, m, "build")
	if p, err := (&env{s: s}).ConfirmRun(context.Background(), tools.RunRequest{Command: "go test ./..."}); err != nil || !p.Run {
		t.Fatalf("the new allow rule did not apply: %v %v", p.Run, err)
	}
}
