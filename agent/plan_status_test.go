package agent

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// appliedRequests are the requests the editor got so far.
func (e *memEditor) appliedRequests() []ApplyRequest {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]ApplyRequest(nil), e.applied...)
}

// TestPlanStatusChangesActAsTheSystem: every status change the server makes
// (approved on a switch to build and on agentls.buildPlan, implemented once
// every step is ticked, archived) is made as guard.SystemActor: the request
// names it as its actor and in its label, it is made for the session it
// concerns (none for an archive: no phantom session), and its last check
// judges it as the system (plan mode's rules, even for a build session: a
// source file is refused, with the refusal naming the system).
func TestPlanStatusChangesActAsTheSystem(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, nil)
	writePlan(t, m, "plans/health.plan", planWithSteps)
	writePlan(t, m, "plans/other.plan", planWithSteps)
	writePlan(t, m, "plans/old.plan", planWithSteps)
	writePlan(t, m, "src/main.go", "package main\n")

	planner := newTestSession(t, m, "plan")
	planner.attachPlan("plans/other.plan")
	if _, err := m.SetMode(ctx, planner.ID(), "build"); err != nil {
		t.Fatal(err)
	}
	built, err := m.BuildPlan(ctx, "plans/health.plan")
	if err != nil {
		t.Fatal(err)
	}
	ticked := strings.Replace(strings.Replace(planWithSteps, "- [ ] add test", "- [x] add test", 1), "status: draft", "status: approved", 1)
	m.PlanChanged(writePlan(t, m, "plans/health.plan", ticked))
	sessions := len(m.loaded())
	if _, err := m.ArchivePlan(ctx, "plans/old.plan"); err != nil {
		t.Fatal(err)
	}
	if len(m.loaded()) != sessions {
		t.Fatal("ArchivePlan made a session")
	}

	want := []struct{ session, plan, status string }{
		{planner.ID(), "plans/other.plan", "approved"},
		{built.SessionID, "plans/health.plan", "approved"},
		{built.SessionID, "plans/health.plan", "implemented"},
		{"", "plans/old.plan", "archived"},
	}
	reqs := ed.appliedRequests()
	if len(reqs) != len(want) {
		t.Fatalf("%d apply requests, want %d: %+v", len(reqs), len(want), reqs)
	}
	src := filepath.Join(m.ws.Root(), "src", "main.go")
	for i, w := range want {
		req := reqs[i]
		if req.Actor != guard.SystemActor || req.SessionID != w.session {
			t.Errorf("request %d (%s): actor %q session %q, want %q and %q", i, req.Label, req.Actor, req.SessionID, guard.SystemActor, w.session)
		}
		if wantLabel := guard.SystemActor + ": mark plan " + w.plan + " " + w.status; req.Label != wantLabel {
			t.Errorf("request %d: label %q, want %q", i, req.Label, wantLabel)
		}
		if len(req.Changes) != 1 || req.Changes[0].Path.Rel != w.plan {
			t.Errorf("request %d changes %+v, want only %s", i, req.Changes, w.plan)
		}
		err := req.Check([]guard.Op{{Kind: workspace.ChangeEdit, Path: src}})
		var ref *guard.Refusal
		if !errors.As(err, &ref) || ref.ToolName != guard.SystemActor || ref.Reason != guard.ReasonPlanMode {
			t.Errorf("request %d: its check on a source file = %v, want a plan-mode refusal of %s", i, err, guard.SystemActor)
		}
		if err := req.Check([]guard.Op{{Kind: workspace.ChangeEdit, Path: req.Changes[0].Path.Abs}}); err != nil {
			t.Errorf("request %d: its check on its own plan = %v", i, err)
		}
	}
	if built.Mode != agentproto.ModeBuild {
		t.Fatalf("the built session is in %s mode: the system's plan-mode check must not come from it", built.Mode)
	}
}
