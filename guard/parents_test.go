package guard

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestParentsOfANestedPlansFolder: with plans_dir docs/plans and no docs/
// yet, plan mode may create docs/ and docs/plans/ on the way to the plans
// folder (else no plan could ever be written there), but no other folder.
func TestParentsOfANestedPlansFolder(t *testing.T) {
	sb := newSandbox(t, setupNoPlans)
	g := New(sb.w, "docs/plans", declaredTools)
	tests := []struct {
		args    string
		allowed bool
	}{
		{`{"path":"docs/plans/x.plan","content":"x"}`, true},
		{`{"path":"docs/plans/a/b/x.plan","content":"x"}`, true},
		{`{"path":"docs/x.plan","content":"x"}`, true}, // docs/ is on the way to the plans folder
		{`{"path":"docs/other/x.plan","content":"x"}`, false},
		{`{"path":"src/newpkg/x.plan","content":"x"}`, false},
	}
	for _, tt := range tests {
		r := g.CheckCall(stateOf(agentproto.ModePlan), "write", json.RawMessage(tt.args))
		if (r == nil) != tt.allowed {
			t.Errorf("write %s: refusal %v, want allowed %v", tt.args, r, tt.allowed)
		}
		if r != nil && (r.Reason != ReasonPlanMode || !strings.Contains(r.Hint, "folders may be created only inside docs/plans/")) {
			t.Errorf("write %s: refusal %+v, want the plan-mode sentence and a hint naming docs/plans/", tt.args, r)
		}
	}
	if r := g.CheckCall(stateOf(agentproto.ModePlan), "mkdir", json.RawMessage(`{"path":"docs/plans"}`)); r != nil {
		t.Errorf("mkdir docs/plans refused: %v", r)
	}
	if r := g.CheckOps(stateOf(agentproto.ModePlan), "plan_write", []Op{{Kind: cCreate, Path: sb.ws + "/docs/plans/auto.plan"}}); r != nil {
		t.Errorf("create docs/plans/auto.plan refused: %v", r)
	}
}
