package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/agentls/agentls/agentproto"
)

// FuzzSetPlanStatusIsWhatParsePlanReads: the approval writes the plan's
// status with SetPlanStatus, and everything else (the plan list, the
// locks, the build's end) reads it with ParsePlan. For a plan that
// parses, the status written is the status read, the title, the other
// keys and the steps stay as they were, and setting the same status again
// changes nothing; only a frontmatter in flow style is refused.
func FuzzSetPlanStatusIsWhatParsePlanReads(f *testing.F) {
	paths, _ := filepath.Glob("../testdata/plans/*.plan")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b), uint8(1))
		}
	}
	f.Add("---\ntitle: T\nstatus: draft # keep\n---\n- [ ] a\n", uint8(1))
	f.Add("---\ntitle: T\n\"status\": draft\n---\n", uint8(1))
	f.Add("---\r\ntitle: 'a: b'\r\nstatus:\r\n...\r\n- [x] done\r\n", uint8(2))
	f.Add("no frontmatter\n- [ ] step\n", uint8(0))
	f.Add("---\ntitle: Add a cache to the\n  API client\n---\n- [ ] a\n", uint8(1))
	f.Add("---\ntitle: T\nstatus: # set at approval\n---\n", uint8(1))
	f.Add("---\ntitle: |\n  T\n  # not a comment\nstatus: >-\n  draft\n  # x\nz: 1\n---\n", uint8(3))
	statuses := []agentproto.PlanStatus{agentproto.PlanDraft, agentproto.PlanApproved, agentproto.PlanImplemented, agentproto.PlanArchived}
	f.Fuzz(func(t *testing.T, text string, which uint8) {
		status := statuses[int(which)%len(statuses)]
		before, err := ParsePlan(text)
		if err != nil {
			return
		}
		out, err := SetPlanStatus(text, status)
		if err != nil && flowFrontmatter(text) {
			return // refused with a reason: agentls does not edit flow style
		}
		if err != nil {
			t.Fatalf("SetPlanStatus(%q) refused a plan that parses: %v\n%q", status, err, text)
		}
		after, err := ParsePlan(out)
		if err != nil {
			t.Fatalf("SetPlanStatus(%q) made a plan that does not parse: %v\n%q", status, err, out)
		}
		if after.Meta == nil || after.Meta.Status != status {
			t.Fatalf("wrote status %q, ParsePlan reads %+v\nbefore: %q\nafter:  %q", status, after.Meta, text, out)
		}
		if before.Meta != nil && after.Meta.Title != before.Meta.Title {
			t.Fatalf("title %q became %q", before.Meta.Title, after.Meta.Title)
		}
		if len(before.Steps) != len(after.Steps) {
			t.Fatalf("%d steps became %d", len(before.Steps), len(after.Steps))
		}
		for i := range before.Steps {
			if before.Steps[i].Text != after.Steps[i].Text || before.Steps[i].Done != after.Steps[i].Done {
				t.Fatalf("step %d %+v became %+v", i, before.Steps[i], after.Steps[i])
			}
		}
		if again, err := SetPlanStatus(out, status); err != nil || again != out {
			t.Fatalf("setting %q twice changed the plan again (%v):\n%q\n%q", status, err, out, again)
		}
	})
}

// flowFrontmatter reports whether text's frontmatter is a YAML node in
// flow style ({…} or […]).
func flowFrontmatter(text string) bool {
	var doc yaml.Node
	fm := findFrontmatter(text)
	return fm.closed && yaml.Unmarshal([]byte(fm.yaml), &doc) == nil && len(doc.Content) > 0 && doc.Content[0].Style&yaml.FlowStyle != 0
}
