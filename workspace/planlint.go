package workspace

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The severities of a PlanDiagnostic.
const (
	PlanSeverityError   = "error"
	PlanSeverityWarning = "warning"
)

// PlanDiagnostic is one problem the plan linter found.
type PlanDiagnostic struct {
	// Range is where the problem is: 0-based lines, characters in UTF-16
	// code units (as LSP counts them).
	Range Range `json:"range"`
	// Severity is PlanSeverityError or PlanSeverityWarning.
	Severity string `json:"severity"`
	// Message says what is wrong and how to fix it.
	Message string `json:"message"`
}

// LintPlan checks a `.plan` document. Errors: a missing, unclosed or
// unparsable frontmatter (at the YAML error's line), a missing title or
// status, an unknown status, no steps, an empty step, a repeated step.
// Warnings: no "Files" section, no "Verification" section (style), an open
// review comment (plan_comments.go). The
// diagnostics are sorted by position. It does no I/O.
func LintPlan(text string) []PlanDiagnostic {
	l := planLinter{text: text, lines: splitLines(text)}
	plan, err := ParsePlan(text)
	l.frontmatter(plan, err)
	l.steps(plan)
	l.sections(plan)
	l.lintComments() // plan_comments.go
	slices.SortStableFunc(l.out, func(a, b PlanDiagnostic) int {
		return cmp.Or(cmp.Compare(a.Range.Start.Line, b.Range.Start.Line), cmp.Compare(a.Range.Start.Character, b.Range.Start.Character))
	})
	return l.out
}

// planLinter collects the diagnostics of one text.
type planLinter struct {
	text  string
	lines []textLine
	out   []PlanDiagnostic
}

func (l *planLinter) add(r Range, severity, format string, args ...any) {
	l.out = append(l.out, PlanDiagnostic{Range: r, Severity: severity, Message: fmt.Sprintf(format, args...)})
}

// content is line i without its line break ("" past the end).
func (l *planLinter) content(i int) string {
	if i < 0 || i >= len(l.lines) {
		return ""
	}
	return l.text[l.lines[i].start:l.lines[i].end]
}

// lineRange spans line i's content (empty past the end of the text).
func (l *planLinter) lineRange(i int) Range {
	i = max(0, i)
	return Range{
		Start: Position{Line: uint32(i)},
		End:   Position{Line: uint32(i), Character: uint32(utf16Len(l.content(i)))},
	}
}

// spanRange spans bytes [from, to) of line i.
func (l *planLinter) spanRange(i, from, to int) Range {
	c := l.content(i)
	return Range{
		Start: Position{Line: uint32(i), Character: uint32(utf16Len(c[:from]))},
		End:   Position{Line: uint32(i), Character: uint32(utf16Len(c[:to]))},
	}
}

const statusHint = "draft, approved, implemented or archived"

// frontmatter checks the YAML frontmatter and its keys.
func (l *planLinter) frontmatter(plan Plan, err error) {
	fm := findFrontmatter(l.text)
	if !fm.found {
		l.add(l.lineRange(0), PlanSeverityError,
			"the plan has no frontmatter: start the file with a '---' line, then 'title: …' and 'status: draft', then a closing '---' line")
		return
	}
	var fe *FrontmatterError
	if errors.As(err, &fe) {
		line := fe.Line
		if strings.HasPrefix(fe.Msg, "invalid YAML: ") && fm.closed {
			if i := yamlErrorLine(fm.yaml); i >= 0 {
				line = 1 + i // the YAML starts on the file's second line
			}
		}
		l.add(l.lineRange(line), PlanSeverityError, "%s", fe.Msg)
		return
	}
	if plan.Meta == nil {
		return
	}
	if line, ok := plan.KeyLines["title"]; !ok {
		l.add(l.lineRange(0), PlanSeverityError, "the frontmatter has no title: add a line 'title: <what the plan achieves>'")
	} else if strings.TrimSpace(plan.Meta.Title) == "" {
		l.add(l.lineRange(line), PlanSeverityError, "the title is empty: say in a few words what the plan achieves")
	}
	line, ok := plan.KeyLines["status"]
	switch {
	case !ok:
		l.add(l.lineRange(0), PlanSeverityError, "the frontmatter has no status: add a line 'status: draft' (%s)", statusHint)
	case plan.Meta.Status == "":
		l.add(l.lineRange(line), PlanSeverityError, "the status is empty: use %s", statusHint)
	case !plan.Meta.Status.Valid():
		l.add(l.valueRange(line), PlanSeverityError, "unknown status %q: use %s", plan.Meta.Status, statusHint)
	}
}

// valueRange spans the value of a "key: value" line, without a comment.
func (l *planLinter) valueRange(i int) Range {
	c := l.content(i)
	colon := strings.IndexByte(c, ':')
	if colon < 0 {
		return l.lineRange(i)
	}
	start := colon + 1
	for start < len(c) && (c[start] == ' ' || c[start] == '\t') {
		start++
	}
	end := len(c)
	if j := strings.Index(c[start:], " #"); j >= 0 {
		end = start + j
	}
	end = start + len(strings.TrimRight(c[start:end], " \t"))
	if end <= start {
		return l.lineRange(i)
	}
	return l.spanRange(i, start, end)
}

// yamlErrorLine finds the 0-based line of y where parsing first fails the
// way the whole text does: the shortest failing prefix of lines. yaml.v3
// often reports the line of the enclosing context instead, or none. It
// returns -1 if it cannot tell.
func yamlErrorLine(y string) int {
	var n yaml.Node
	whole := yaml.Unmarshal([]byte(y), &n)
	if whole == nil {
		return -1
	}
	want := yamlMessage(whole)
	lines := strings.SplitAfter(y, "\n")
	if len(lines) > maxLintYAMLLines {
		return -1
	}
	for i := range lines {
		var p yaml.Node
		if err := yaml.Unmarshal([]byte(strings.Join(lines[:i+1], "")), &p); err != nil && yamlMessage(err) == want {
			return i
		}
	}
	return -1
}

// maxLintYAMLLines bounds the prefix search of yamlErrorLine.
const maxLintYAMLLines = 500

// yamlMessage is a yaml.v3 error without its "yaml: line N: " prefix.
func yamlMessage(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := yamlErrLine.FindStringIndex(msg); m != nil && m[0] == 0 {
		msg = msg[m[1]:]
	}
	return msg
}

// steps checks that the plan has steps, none empty, none repeated.
func (l *planLinter) steps(plan Plan) {
	if len(plan.Steps) == 0 {
		line := 0
		if h, ok := l.heading(plan, "steps"); ok {
			line = h
		}
		l.add(l.lineRange(line), PlanSeverityError,
			"the plan has no steps: add them as markdown checkboxes, one action each, e.g. '- [ ] Add the handler' under '## Steps'")
		return
	}
	first := map[string]int{} // folded step text → its line
	for _, st := range plan.Steps {
		if st.Text == "" {
			l.add(l.lineRange(st.Line), PlanSeverityError, "empty step: write the action after the checkbox, or delete the line")
			continue
		}
		key := StepKey(st.Text)
		if prev, dup := first[key]; dup {
			l.add(l.stepTextRange(st.Line), PlanSeverityError,
				"duplicate step %q (first on line %d): merge the two, or say in each what is different", st.Text, prev+1)
			continue
		}
		first[key] = st.Line
	}
}

// stepTextRange spans the text after a step's checkbox.
func (l *planLinter) stepTextRange(i int) Range {
	c := l.content(i)
	m := stepRe.FindStringSubmatchIndex(c)
	if m == nil || m[4] < 0 {
		return l.lineRange(i)
	}
	return l.spanRange(i, m[4], m[4]+len(strings.TrimRight(c[m[4]:m[5]], " \t")))
}

// sections warns about the sections a good plan has (agent/prompts/planner.md).
func (l *planLinter) sections(plan Plan) {
	if _, ok := l.heading(plan, "files"); !ok {
		l.add(l.lineRange(0), PlanSeverityWarning, "no '## Files' section: list each file the plan changes and what changes in it")
	}
	if _, ok := l.heading(plan, "verification"); !ok {
		l.add(l.lineRange(0), PlanSeverityWarning, "no '## Verification' section: say which commands or checks prove that the plan worked")
	}
}

// headingRe matches an ATX markdown heading and captures its text.
var headingRe = regexp.MustCompile(`^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$`)

// heading finds the first heading of the body, outside fenced code, whose
// first word is word (case-insensitive): "## Files", "## Files to change".
func (l *planLinter) heading(plan Plan, word string) (int, bool) {
	found := -1
	eachProseLine(l.text, l.lines, plan.BodyLine, func(i int, c string) bool {
		m := headingRe.FindStringSubmatch(c)
		if m == nil {
			return true
		}
		first, _, _ := strings.Cut(strings.ToLower(m[1]), " ")
		if strings.TrimRight(first, ":") == word {
			found = i
			return false
		}
		return true
	})
	return found, found >= 0
}
