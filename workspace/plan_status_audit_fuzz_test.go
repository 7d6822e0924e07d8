package workspace

import (
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestApprovingAPlanWithAQuotedStatusKeyKeepsItReadable: the model writes
// the plan, and `"status": draft` is the same YAML key as `status: draft`
// (ParsePlan reads it so). The approval's SetPlanStatus must change that
// key, not add a second one that leaves the approved plan unparseable
// (its status unreadable to the list, the locks and the build's end).
// Found by FuzzSetPlanStatusIsWhatParsePlanReads.
func TestApprovingAPlanWithAQuotedStatusKeyKeepsItReadable(t *testing.T) {
	text := "---\ntitle: Cache\n\"status\": draft\n---\n- [ ] add the cache\n"
	if p, err := ParsePlan(text); err != nil || p.Meta.Status != agentproto.PlanDraft {
		t.Fatalf("the plan as written: %+v, %v", p.Meta, err)
	}
	out, err := SetPlanStatus(text, agentproto.PlanApproved)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParsePlan(out)
	if err != nil {
		t.Fatalf("after approval the plan does not parse: %v\n%s", err, out)
	}
	if p.Meta.Status != agentproto.PlanApproved {
		t.Fatalf("after approval the status reads %q\n%s", p.Meta.Status, out)
	}
}
