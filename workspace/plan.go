package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/agentls/agentls/agentproto"
)

// PlanStatuses lists the valid statuses in lifecycle order.
var PlanStatuses = []agentproto.PlanStatus{agentproto.PlanDraft, agentproto.PlanApproved, agentproto.PlanImplemented, agentproto.PlanArchived}

// PlanMeta is a plan's YAML frontmatter.
type PlanMeta struct {
	Title     string                `yaml:"title"`
	Status    agentproto.PlanStatus `yaml:"status"`
	CreatedAt time.Time             `yaml:"created_at"`
}

// PlanStep is a markdown checkbox of the plan body.
type PlanStep struct {
	// Line is the 0-based line in the whole file.
	Line int
	// Text is what follows the checkbox, trimmed.
	Text string
	// Done reports a ticked box ([x] or [X]).
	Done bool
}

// Plan is a parsed `.plan` file.
type Plan struct {
	// Meta is the frontmatter; nil for a legacy plan without one.
	Meta *PlanMeta
	// KeyLines maps each frontmatter key to its 0-based line in the file.
	KeyLines map[string]int
	// Body is the text after the frontmatter (the whole text without one).
	Body string
	// BodyLine is the 0-based line where Body starts.
	BodyLine int
	// Steps are the checkboxes of the body outside fenced code blocks.
	Steps []PlanStep
}

// StepsDone counts the ticked steps.
func (p Plan) StepsDone() int {
	n := 0
	for _, st := range p.Steps {
		if st.Done {
			n++
		}
	}
	return n
}

// FrontmatterError reports a frontmatter that cannot be parsed.
type FrontmatterError struct {
	// Line is 0-based in the file.
	Line int
	Msg  string
}

// Error shows the 1-based line, as editors and people count.
func (e *FrontmatterError) Error() string {
	return fmt.Sprintf("frontmatter line %d: %s", e.Line+1, e.Msg)
}

// ParsePlan parses a plan. A frontmatter that cannot be parsed gives a
// *FrontmatterError; the Plan returned with it still has Body, BodyLine and
// Steps (Meta nil), so that a linter can report more than one problem.
func ParsePlan(text string) (Plan, error) {
	lines := splitLines(text)
	fm := findFrontmatter(text)
	p := Plan{Body: text}
	var ferr error
	if fm.found {
		if !fm.closed {
			ferr = &FrontmatterError{Line: 0, Msg: "the frontmatter opened on the first line is never closed by a '---' line"}
		} else {
			p.Body, p.BodyLine = text[fm.body:], fm.close+1
			meta, keys, err := parsePlanMeta(fm.yaml)
			if err != nil {
				ferr = err
			} else {
				p.Meta, p.KeyLines = &meta, keys
			}
		}
	}
	p.Steps = findSteps(text, lines, p.BodyLine)
	return p, ferr
}

// yamlErrLine finds "line N" in a yaml error message.
var yamlErrLine = regexp.MustCompile(`line (\d+): `)

// parsePlanMeta decodes the frontmatter YAML (which starts on file line 1).
func parsePlanMeta(y string) (PlanMeta, map[string]int, error) {
	const first = 1 // 0-based file line of the first YAML line
	var meta PlanMeta
	keys := map[string]int{}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(y), &doc); err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		line := first
		if m := yamlErrLine.FindStringSubmatch(msg); m != nil {
			n, _ := strconv.Atoi(m[1])
			line = first + n - 1
			msg = strings.Replace(msg, m[0], "", 1)
		}
		return meta, nil, &FrontmatterError{Line: line, Msg: "invalid YAML: " + msg}
	}
	if len(doc.Content) == 0 {
		return meta, keys, nil // empty frontmatter
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return meta, nil, &FrontmatterError{Line: first + root.Line - 1, Msg: "the frontmatter must be a mapping of keys (title, status, created_at)"}
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		line := first + k.Line - 1
		if prev, dup := keys[k.Value]; dup {
			return meta, nil, &FrontmatterError{Line: line, Msg: fmt.Sprintf("key %q is repeated (first on line %d)", k.Value, prev+1)}
		}
		keys[k.Value] = line
		if v.Tag == "!!null" {
			continue
		}
		var err error
		switch k.Value {
		case "title":
			err = decodeScalar(v, &meta.Title)
		case "status":
			var s string
			err = decodeScalar(v, &s)
			meta.Status = agentproto.PlanStatus(s)
		case "created_at":
			if err = v.Decode(&meta.CreatedAt); err != nil {
				err = fmt.Errorf("created_at %q is not a time; use RFC 3339, e.g. 2025-01-15T10:30:00Z", v.Value)
			}
		}
		if err != nil {
			return meta, nil, &FrontmatterError{Line: first + v.Line - 1, Msg: err.Error()}
		}
	}
	return meta, keys, nil
}

func decodeScalar(v *yaml.Node, out *string) error {
	if v.Kind != yaml.ScalarNode {
		return errors.New("expected a single value")
	}
	*out = v.Value
	return nil
}

// stepRe matches a markdown task item: a bullet (-, *, +) or a number, then
// [ ], [x] or [X], then whitespace and the text (or the end of the line).
var stepRe = regexp.MustCompile(`^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[([ xX])\](?:[ \t]+(.*))?$`)

// fenceRe matches the opening of a fenced code block.
var fenceRe = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")

// findSteps returns the checkboxes from line `from` on, outside fenced code.
func findSteps(text string, lines []textLine, from int) []PlanStep {
	var out []PlanStep
	eachProseLine(text, lines, from, func(i int, l string) bool {
		m := stepRe.FindStringSubmatchIndex(l)
		if m == nil {
			return true
		}
		s := PlanStep{Line: i, Done: l[m[2]] != ' '}
		if m[4] >= 0 {
			s.Text = strings.TrimSpace(l[m[4]:m[5]])
		}
		out = append(out, s)
		return true
	})
	return out
}

// eachProseLine calls fn on the lines (content without the line break) from
// `from` on that are outside fenced code blocks, until fn returns false.
func eachProseLine(text string, lines []textLine, from int, fn func(i int, line string) bool) {
	fence := "" // the open fence's marker, "" outside code
	for i := from; i < len(lines); i++ {
		l := text[lines[i].start:lines[i].end]
		if fence != "" {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		if m := fenceRe.FindStringSubmatch(l); m != nil {
			// A backtick fence's info string may not contain backticks.
			if m[1][0] != '`' || !strings.Contains(l[len(m[0]):], "`") {
				fence = m[1]
				continue
			}
		}
		if !fn(i, l) {
			return
		}
	}
}

// StepKey is the form in which two steps count as the same: lower case,
// white space folded. The plan linter reports steps with equal keys.
func StepKey(text string) string {
	return strings.ToLower(strings.Join(strings.Fields(text), " "))
}

// RenderPlan renders a plan file: the frontmatter (title, status, created_at
// in UTC, RFC 3339, whole seconds) then body, which gets a final line break if
// it lacks one. An empty status renders as draft; a zero CreatedAt is left
// out.
func RenderPlan(meta PlanMeta, body string) string {
	if meta.Status == "" {
		meta.Status = agentproto.PlanDraft
	}
	fields := struct {
		Title     string                `yaml:"title"`
		Status    agentproto.PlanStatus `yaml:"status"`
		CreatedAt *time.Time            `yaml:"created_at,omitempty"`
	}{Title: meta.Title, Status: meta.Status}
	if !meta.CreatedAt.IsZero() {
		t := meta.CreatedAt.UTC().Truncate(time.Second)
		fields.CreatedAt = &t
	}
	var y bytes.Buffer
	enc := yaml.NewEncoder(&y)
	if err := enc.Encode(fields); err != nil {
		// Strings, a status and a time always encode.
		panic(fmt.Sprintf("render plan frontmatter: %v", err))
	}
	enc.Close()
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	return "---\n" + y.String() + "---\n" + body
}
