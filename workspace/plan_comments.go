package workspace

import (
	"fmt"
	"regexp"
	"strings"
)

// PlanComment is a review comment in a `.plan` document: a `> review:
// <text>` line (open) or a `> resolved: <text>` line (answered) directly
// under a step (docs/review.md, "Plans reviewed with comments").
type PlanComment struct {
	// Line is the comment's 0-based line.
	Line int `json:"line"`
	// Step is the 0-based index of the step it is under in Plan.Steps; -1
	// when it is not directly under a step (it still counts: an open one
	// holds the approval).
	Step int `json:"step"`
	// StepText is that step's text ("" for none).
	StepText string `json:"stepText,omitempty"`
	// Text is the comment after its keyword, trimmed.
	Text string `json:"text"`
	// Resolved is set for a `> resolved:` line.
	Resolved bool `json:"resolved"`
}

// commentRe matches a comment line: a blockquote marker, then review: or
// resolved: (any case) and the text. Up to three spaces of indentation, or
// any under a list item (a step's nested quote).
var commentRe = regexp.MustCompile(`^[ \t]*>[ \t]*(?i:(review|resolved))[ \t]*:[ \t]*(.*)$`)

// PlanComments lists the review comments of a plan's body, outside fenced
// code, in order. A comment belongs to the step right above it: the lines
// between the step and the comment are other comments of that step.
func PlanComments(text string) []PlanComment {
	plan, _ := ParsePlan(text)
	lines := splitLines(text)
	stepAt := map[int]int{}
	for i, st := range plan.Steps {
		stepAt[st.Line] = i
	}
	var out []PlanComment
	step, prevLine := -1, -2 // the step the next comment may belong to, and its last line
	eachProseLine(text, lines, plan.BodyLine, func(i int, l string) bool {
		if idx, ok := stepAt[i]; ok {
			step, prevLine = idx, i
			return true
		}
		m := commentRe.FindStringSubmatch(l)
		if m == nil {
			step = -1
			return true
		}
		c := PlanComment{Line: i, Step: -1, Text: strings.TrimSpace(m[2]), Resolved: strings.EqualFold(m[1], "resolved")}
		if step >= 0 && prevLine == i-1 {
			c.Step, c.StepText = step, plan.Steps[step].Text
			prevLine = i
		} else {
			step = -1
		}
		out = append(out, c)
		return true
	})
	return out
}

// OpenComments are the comments not resolved yet.
func OpenComments(comments []PlanComment) []PlanComment {
	var out []PlanComment
	for _, c := range comments {
		if !c.Resolved {
			out = append(out, c)
		}
	}
	return out
}

// ResolvedCount counts the resolved comments.
func ResolvedCount(comments []PlanComment) int {
	return len(comments) - len(OpenComments(comments))
}

// CommentsReason is the open comments as one rejection reason, one per
// line: what "Request changes" tells the planner.
func CommentsReason(open []PlanComment) string {
	var b strings.Builder
	fmt.Fprintf(&b, "the user requests changes: %d open review comment(s) in the plan. Answer each by changing the plan, "+
		"then turn its '> review:' line into '> resolved: <what you changed>'.", len(open))
	for _, c := range open {
		b.WriteString("\n- ")
		b.WriteString(c.Where())
		b.WriteString(": ")
		b.WriteString(c.Text)
	}
	return b.String()
}

// Where names the comment's place: its line and step.
func (c PlanComment) Where() string {
	if c.Step < 0 {
		return fmt.Sprintf("line %d", c.Line+1)
	}
	return fmt.Sprintf("line %d, on step %d %q", c.Line+1, c.Step+1, c.StepText)
}

// lintComments reports each open comment (a warning: it does not block
// the "Approve & Build" lens, but the approval itself is refused while one
// is open) and a comment that is not under a step.
func (l *planLinter) lintComments() {
	for _, c := range PlanComments(l.text) {
		switch {
		case !c.Resolved && c.Step < 0:
			l.add(l.lineRange(c.Line), PlanSeverityWarning,
				"open review comment, not directly under a step: %s (it holds the approval until it is resolved: write it right under the step it is about)", c.Text)
		case !c.Resolved:
			l.add(l.lineRange(c.Line), PlanSeverityWarning,
				"open review comment on step %d: %s (the approval waits until it is resolved: change the plan, then make it '> resolved: …')", c.Step+1, c.Text)
		}
	}
}
