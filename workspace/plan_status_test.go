package workspace

import (
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestApprovingAPlanWithAQuotedStatusKeyKeepsItReadable: the model writes
// the plan, and `"status": draft` is the same YAML key as `status: draft`
// (ParsePlan reads it so). The approval's SetPlanStatus must change that
// key, not add a second one that leaves the approved plan unparseable
// (its status unreadable to the list, the locks and the build's end), as
// it did when it looked for a line starting "status".
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
	if want := "---\ntitle: Cache\n\"status\": approved\n---\n- [ ] add the cache\n"; out != want {
		t.Fatalf("the approval changed more than the value:\n%q\nwant\n%q", out, want)
	}
}

// TestApprovingAPlanWithAFoldedTitleReadsApproved: a plan without a status
// line whose title the model folded over two lines (a YAML plain scalar
// continues on an indented line). The approval added the status after the
// title's first line, inside the title, so the status read back was
// "approved API client", not approved; it goes after the title's value. Found by
// FuzzSetPlanStatusIsWhatParsePlanReads.
func TestApprovingAPlanWithAFoldedTitleReadsApproved(t *testing.T) {
	text := "---\ntitle: Add a cache to the\n  API client\n---\n- [ ] add the cache\n"
	if p, err := ParsePlan(text); err != nil || p.Meta.Title != "Add a cache to the API client" {
		t.Fatalf("the plan as written: %+v, %v", p.Meta, err)
	}
	out, err := SetPlanStatus(text, agentproto.PlanApproved)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParsePlan(out)
	if err != nil || p.Meta.Status != agentproto.PlanApproved || p.Meta.Title != "Add a cache to the API client" {
		t.Fatalf("after approval: status %q, title %q (err %v)\n%s", p.Meta.Status, p.Meta.Title, err, out)
	}
	if want := "---\ntitle: Add a cache to the\n  API client\nstatus: approved\n---\n- [ ] add the cache\n"; out != want {
		t.Fatalf("the status line is not right after the title:\n%q\nwant\n%q", out, want)
	}
}

// TestApprovingAPlanWhoseStatusIsOnlyACommentReadsApproved: "status: # set
// at approval" is an empty status with a comment. The approval wrote the
// status right against the comment's "#", which YAML then reads as part of
// the value: the status became "approved# set at approval". Found by
// FuzzSetPlanStatusIsWhatParsePlanReads.
func TestApprovingAPlanWhoseStatusIsOnlyACommentReadsApproved(t *testing.T) {
	text := "---\ntitle: Cache\nstatus: # set at approval\n---\n- [ ] add the cache\n"
	if _, err := ParsePlan(text); err != nil {
		t.Fatalf("the plan as written: %v", err)
	}
	out, err := SetPlanStatus(text, agentproto.PlanApproved)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParsePlan(out)
	if err != nil || p.Meta.Status != agentproto.PlanApproved {
		t.Fatalf("after approval: status %q (err %v)\n%s", p.Meta.Status, err, out)
	}
	if want := "---\ntitle: Cache\nstatus: approved # set at approval\n---\n- [ ] add the cache\n"; out != want {
		t.Fatalf("the comment is not kept after a blank:\n%q\nwant\n%q", out, want)
	}
}
