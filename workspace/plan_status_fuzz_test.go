package workspace

import (
	"os"
	"regexp"
	"strings"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// FuzzSetPlanStatusIsWhatParsePlanReads: the approval writes the plan's
// status with SetPlanStatus, and everything else (the plan list, the
// locks, the build's end) reads it with ParsePlan. For a plan that
// parses, the status written is the status read, the title and the steps
// stay as they were, and setting the same status again changes nothing.
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
	statuses := []agentproto.PlanStatus{agentproto.PlanDraft, agentproto.PlanApproved, agentproto.PlanImplemented, agentproto.PlanArchived}
	f.Fuzz(func(t *testing.T, text string, which uint8) {
		status := statuses[int(which)%len(statuses)]
		before, err := ParsePlan(text)
		if err != nil {
			return
		}
		if at, ok := before.KeyLines["status"]; ok {
			if lines := splitLines(text); at < len(lines) && !statusLineRe.MatchString(text[lines[at].start:lines[at].end]) {
				return // TestApprovingAPlanWithAQuotedStatusKeyKeepsItReadable
			}
		}
		if _, ok := before.KeyLines["status"]; !ok && before.Meta != nil && before.Meta.Title != "" && !oneLineTitle(text, before) {
			return // TestApprovingAPlanWithAFoldedTitleReadsApproved
		}
		if at, ok := before.KeyLines["status"]; ok {
			if lines := splitLines(text); at < len(lines) && strings.Contains(text[lines[at].start:lines[at].end], "#") {
				return // TestApprovingAPlanWhoseStatusIsOnlyACommentReadsApproved
			}
		}
		if fm := findFrontmatter(text); fm.found && !plainKeyLines(fm.yaml) {
			return // YAML beyond one plain key per line: the same class as the two tests above
		}
		out, err := SetPlanStatus(text, status)
		if err != nil {
			return // a frontmatter never closed: refused, not guessed
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

// oneLineTitle reports whether the title's key line holds the whole title
// (the line after it is another key or the closing fence).
func oneLineTitle(text string, p Plan) bool {
	at, ok := p.KeyLines["title"]
	lines := splitLines(text)
	if !ok || at+1 >= len(lines) {
		return true
	}
	next := text[lines[at+1].start:lines[at+1].end]
	return next == "---" || next == "..." || len(next) > 0 && next[0] != ' ' && next[0] != '\t' && next[0] != '#'
}

var plainKeyLine = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*[ \t]*:([ \t].*)?|#.*|)\r?$`)

// plainKeyLines reports whether every line of a frontmatter is one plain
// key and its value on the line, a comment or blank.
func plainKeyLines(y string) bool {
	for _, l := range splitLines(y) {
		if !plainKeyLine.MatchString(y[l.start:l.end]) {
			return false
		}
	}
	return true
}
