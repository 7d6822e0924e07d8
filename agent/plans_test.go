package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// noTurns is a script for tests that never prompt the model.
const noTurns = "name: none\nsteps:\n  - text: unused\n"

const planWithSteps = "---\ntitle: Health\nstatus: draft\ncreated_at: 2026-01-02T03:04:05Z\n---\n# Goal\n\n## Steps\n- [x] add route\n- [ ] add test\n"

// writePlan puts a plan file in the workspace and returns its absolute path.
func writePlan(t *testing.T, m *Manager, rel, text string) string {
	t.Helper()
	abs := filepath.Join(m.ws.Root(), filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return abs
}

func readText(t *testing.T, abs string) string {
	t.Helper()
	b, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// planUpdates are the `plan` updates the editor got so far.
func (e *memEditor) planUpdates() []agentproto.PlanUpdate {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []agentproto.PlanUpdate
	for _, u := range e.updates {
		if p, ok := u.(agentproto.PlanUpdate); ok {
			out = append(out, p)
		}
	}
	return out
}

func TestBuildPlanThenUserTicksLastStep(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, nil)
	abs := writePlan(t, m, "plans/health.plan", planWithSteps)

	info, err := m.BuildPlan(context.Background(), "plans/health.plan")
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode != agentproto.ModeBuild || info.PlanFile == nil || *info.PlanFile != "plans/health.plan" || info.Title != "Health" {
		t.Fatalf("BuildPlan = %+v, want a build session named Health with the plan attached", info)
	}
	want := strings.Replace(planWithSteps, "status: draft", "status: approved", 1)
	if got := readText(t, abs); got != want {
		t.Fatalf("after BuildPlan the plan is\n%s\nwant only the status changed:\n%s", got, want)
	}
	if got := m.PlanSessions("plans/health.plan"); len(got) != 1 || got[0] != info.SessionID {
		t.Fatalf("PlanSessions = %v, want [%s]", got, info.SessionID)
	}

	// The user ticks the last step in the editor (here: on disk) and the
	// server reports it: a fresh plan update, and the plan is implemented.
	before := len(ed.planUpdates())
	ticked := strings.Replace(want, "- [ ] add test", "- [x] add test", 1)
	writePlan(t, m, "plans/health.plan", ticked)
	m.PlanChanged(abs)
	ups := ed.planUpdates()
	if len(ups) <= before {
		t.Fatal("PlanChanged sent no plan update")
	}
	last := ups[len(ups)-1]
	if len(last.Entries) != 2 || last.Entries[1].Status != "completed" {
		t.Fatalf("last plan update = %+v, want both steps completed", last)
	}
	if got, want := readText(t, abs), strings.Replace(ticked, "status: approved", "status: implemented", 1); got != want {
		t.Fatalf("after the last tick the plan is\n%s\nwant\n%s", got, want)
	}
}

func TestPlanChangedInPlanModeKeepsStatus(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, nil)
	s := newTestSession(t, m, "plan")
	done := strings.Replace(planWithSteps, "- [ ] add test", "- [x] add test", 1)
	abs := writePlan(t, m, "plans/health.plan", done)
	s.attachPlan("plans/health.plan")

	m.PlanChanged("plans/health.plan")
	if len(ed.planUpdates()) == 0 {
		t.Fatal("PlanChanged sent no plan update to the session in plan mode")
	}
	if got := readText(t, abs); got != done {
		t.Fatalf("a plan-mode session's plan changed status:\n%s", got)
	}
}

func TestArchivePlan(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, nil)
	abs := writePlan(t, m, "plans/health.plan", planWithSteps)
	writePlan(t, m, "notes.md", "not a plan\n")

	rel, err := m.ArchivePlan(context.Background(), abs)
	if err != nil || rel != "plans/health.plan" {
		t.Fatalf("ArchivePlan = %q, %v", rel, err)
	}
	if got, want := readText(t, abs), strings.Replace(planWithSteps, "status: draft", "status: archived", 1); got != want {
		t.Fatalf("archived plan is\n%s\nwant\n%s", got, want)
	}

	for _, bad := range []string{"", "notes.md", "plans/missing.plan", "../outside.plan", "plans"} {
		_, err := m.ArchivePlan(context.Background(), bad)
		var inv *InvalidParamsError
		if !errors.As(err, &inv) {
			t.Errorf("ArchivePlan(%q) = %v, want an invalid-params error", bad, err)
		}
		if _, err := m.BuildPlan(context.Background(), bad); !errors.As(err, &inv) {
			t.Errorf("BuildPlan(%q) = %v, want an invalid-params error", bad, err)
		}
	}
}

func TestClosedManagerIgnoresPlanChanges(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, nil)
	s := newTestSession(t, m, "build")
	writePlan(t, m, "plans/health.plan", planWithSteps)
	s.attachPlan("plans/health.plan")
	m.Close()
	m.PlanChanged("plans/health.plan")
	if n := len(ed.planUpdates()); n != 0 {
		t.Fatalf("a closed manager sent %d plan updates", n)
	}
}

// TestSwitchToBuildKeepsAFinishedPlan: the user's switch to build (a
// session's agent/setMode, agentls.buildPlan) approves the attached plan,
// unless every step is ticked: then it is implemented, as build mode would
// make it at once, in one edit — an implemented plan is not reopened as
// approved (and then implemented again) by toggling the mode.
func TestSwitchToBuildKeepsAFinishedPlan(t *testing.T) {
	t.Parallel()
	allTicked := strings.Replace(planWithSteps, "- [ ] add test", "- [x] add test", 1)
	tests := []struct {
		name, status, text string
		want               string // the status after the switch
		edits              int    // status edits sent to the editor
	}{
		{"a step left", "draft", planWithSteps, "approved", 1},
		{"every step ticked, approved", "approved", allTicked, "implemented", 1},
		{"every step ticked, implemented", "implemented", allTicked, "implemented", 0},
		{"every step ticked, draft", "draft", allTicked, "implemented", 1},
	}
	for _, tt := range tests {
		for _, how := range []string{"setMode", "buildPlan"} {
			t.Run(tt.name+"/"+how, func(t *testing.T) {
				t.Parallel()
				ctx := context.Background()
				ed := &memEditor{}
				m, _ := newTestManager(t, noTurns, ed, nil)
				text := strings.Replace(tt.text, "status: draft", "status: "+tt.status, 1)
				abs := writePlan(t, m, "plans/health.plan", text)
				if how == "setMode" {
					s := newTestSession(t, m, "plan")
					s.attachPlan("plans/health.plan")
					if _, err := m.SetMode(ctx, s.ID(), "build"); err != nil {
						t.Fatal(err)
					}
				} else if _, err := m.BuildPlan(ctx, "plans/health.plan"); err != nil {
					t.Fatal(err)
				}
				want := strings.Replace(text, "status: "+tt.status, "status: "+tt.want, 1)
				if got := readText(t, abs); got != want {
					t.Errorf("after the switch the plan is\n%s\nwant\n%s", got, want)
				}
				if got := len(ed.appliedRequests()); got != tt.edits {
					t.Errorf("%d edits sent to the editor, want %d", got, tt.edits)
				}
			})
		}
	}
}
