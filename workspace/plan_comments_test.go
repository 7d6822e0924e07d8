package workspace

import (
	"reflect"
	"strings"
	"testing"
)

const commentedPlan = `---
title: T
status: draft
---
## Steps
- [ ] Add the handler
> review: name it Serve, not Handle
> resolved: it is called Serve now
- [ ] Write the test
  > REVIEW : cover the empty body

> review: a stray comment
` + "```" + `
> review: in code, not a comment
` + "```" + `
## Files
## Verification
`

func TestPlanComments(t *testing.T) {
	got := PlanComments(commentedPlan)
	want := []PlanComment{
		{Line: 6, Step: 0, StepText: "Add the handler", Text: "name it Serve, not Handle"},
		{Line: 7, Step: 0, StepText: "Add the handler", Text: "it is called Serve now", Resolved: true},
		{Line: 9, Step: 1, StepText: "Write the test", Text: "cover the empty body"},
		{Line: 11, Step: -1, Text: "a stray comment"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("PlanComments =\n%+v\nwant\n%+v", got, want)
	}
	if n := ResolvedCount(got); n != 1 {
		t.Errorf("ResolvedCount = %d", n)
	}
	reason := CommentsReason(OpenComments(got))
	for _, w := range []string{"3 open review comment(s)", `line 7, on step 1 "Add the handler": name it Serve, not Handle`, "line 12: a stray comment"} {
		if !strings.Contains(reason, w) {
			t.Errorf("reason lacks %q:\n%s", w, reason)
		}
	}
}

func TestLintReportsOpenComments(t *testing.T) {
	var msgs []string
	for _, d := range LintPlan(commentedPlan) {
		if strings.Contains(d.Message, "review comment") {
			if d.Severity != PlanSeverityWarning {
				t.Errorf("%q has severity %s", d.Message, d.Severity)
			}
			msgs = append(msgs, d.Message)
		}
	}
	if len(msgs) != 3 || !strings.Contains(msgs[0], "step 1: name it Serve") || !strings.Contains(msgs[2], "not directly under a step") {
		t.Fatalf("comment diagnostics = %q", msgs)
	}
}

// FuzzPlanComments: every comment found is a real comment line of the
// text, under the step it names, and open ones are each linted.
func FuzzPlanComments(f *testing.F) {
	f.Add(commentedPlan)
	f.Add("- [ ] a\n> review: x\n")
	f.Fuzz(func(t *testing.T, text string) {
		comments := PlanComments(text)
		lines := strings.Split(text, "\n")
		plan, _ := ParsePlan(text)
		for _, c := range comments {
			if c.Line >= len(lines) || !commentRe.MatchString(strings.TrimSuffix(lines[c.Line], "\r")) {
				t.Fatalf("comment %+v is not a comment line", c)
			}
			if c.Step >= 0 && (c.Step >= len(plan.Steps) || plan.Steps[c.Step].Line >= c.Line) {
				t.Fatalf("comment %+v is not under its step", c)
			}
		}
		linted := 0
		for _, d := range LintPlan(text) {
			if strings.Contains(d.Message, "open review comment") {
				linted++
			}
		}
		if linted != len(OpenComments(comments)) {
			t.Fatalf("%d open comments, %d linted", len(OpenComments(comments)), linted)
		}
	})
}
