package guard

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestPlanOnly: under WithPlanOnly (a workspace at the home folder) a
// session whose state says build is held to plan mode's rules at both
// layers, and the refusal says why.
func TestPlanOnly(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	const why = "the workspace is your home folder; open a project folder to build"
	g := sb.g.WithPlanOnly(why)
	if g.PlanOnly() != why || sb.g.PlanOnly() != "" {
		t.Fatalf("PlanOnly = %q on the copy, %q on the original", g.PlanOnly(), sb.g.PlanOnly())
	}
	for _, c := range []struct{ tool, args string }{
		{"write", `{"path":"src/main.go","content":"x"}`},
		{"run", `{"command":"true"}`},
		{"write", `{"path":".bashrc.d/x.plan","content":"x"}`},
	} {
		r := g.CheckCall(stateOf(agentproto.ModeBuild), c.tool, json.RawMessage(c.args))
		if r == nil || r.Reason != ReasonPlanMode || r.EnteredReason != why {
			t.Fatalf("%s %s under plan-only: %+v, want a plan-mode refusal saying why", c.tool, c.args, r)
		}
		if sb.g.CheckCall(stateOf(agentproto.ModeBuild), c.tool, json.RawMessage(c.args)) != nil && !strings.Contains(c.args, ".bashrc.d") {
			t.Fatalf("%s %s refused in build mode without plan-only", c.tool, c.args)
		}
	}
	if r := g.CheckOps(stateOf(agentproto.ModeBuild), "edit", []Op{{Kind: cEdit, Path: sb.expand("$WS/src/main.go")}}); r == nil || r.Reason != ReasonPlanMode {
		t.Fatalf("layer 2 under plan-only: %+v", r)
	}
	if r := g.CheckCall(stateOf(agentproto.ModeBuild), "write", json.RawMessage(`{"path":"plans/new.plan","content":"x"}`)); r != nil {
		t.Fatalf("a plan under plan-only: %v", r)
	}
}
