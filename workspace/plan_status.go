package workspace

import (
	"fmt"
	"maps"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/agentls/agentls/agentproto"
)

// SetPlanStatus rewrites only the status of a plan's frontmatter, found as
// ParsePlan reads it: the top-level YAML key "status" however it is
// quoted. Its value is replaced where it is written, over as many lines as
// it takes, and a comment after it is kept with a blank before it. With no
// status key, a status line is added after the title's value (or after the
// last top-level key's); with no frontmatter, one holding only the status
// is added. Everything else is kept byte for byte. A frontmatter that is
// never closed or that ParsePlan refuses is refused, and so is an edit that
// would not read back as the status written with the rest unchanged, and
// a frontmatter in flow style ({…}): the caller reports it, nothing is
// guessed.
func SetPlanStatus(text string, status agentproto.PlanStatus) (string, error) {
	if !status.Valid() {
		return "", fmt.Errorf("unknown plan status %q (use draft, approved, implemented or archived)", status)
	}
	eol := lineBreakOf(text)
	fm := findFrontmatter(text)
	if !fm.found {
		return "---" + eol + "status: " + string(status) + eol + "---" + eol + text, nil
	}
	if !fm.closed {
		return "", &FrontmatterError{Line: 0, Msg: "the frontmatter opened on the first line is never closed by a '---' line"}
	}
	before, keys, err := parsePlanMeta(fm.yaml)
	if err != nil {
		return "", err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(fm.yaml), &doc); err != nil {
		return "", &FrontmatterError{Line: 1, Msg: "invalid YAML: " + err.Error()} // parsePlanMeta read it
	}
	var root *yaml.Node
	if len(doc.Content) > 0 {
		root = doc.Content[0]
	}
	if root != nil && root.Style&yaml.FlowStyle != 0 {
		return "", &FrontmatterError{Line: 1, Msg: fmt.Sprintf(
			"the frontmatter is written in flow style ({…}), where agentls does not edit the status; write it as lines of \"key: value\" (status: %s)", status)}
	}
	for _, y := range statusEdits(fm.yaml, root, string(status), eol) {
		after, keysAfter, err := parsePlanMeta(y)
		if err == nil && after.Status == status && after.Title == before.Title &&
			after.CreatedAt.Equal(before.CreatedAt) && sameKeys(keys, keysAfter) {
			return text[:fm.yamlStart] + y + text[fm.yamlStart+len(fm.yaml):], nil
		}
	}
	return "", &FrontmatterError{Line: keys["status"], Msg: fmt.Sprintf(
		"the status cannot be written into this frontmatter without changing the rest of it; write \"status: %s\" yourself", status)}
}

// sameKeys reports whether after has the keys of before plus "status".
func sameKeys(before, after map[string]int) bool {
	if _, ok := after["status"]; !ok {
		return false
	}
	want := maps.Clone(before)
	want["status"] = 0
	if len(want) != len(after) {
		return false
	}
	for k := range after {
		if _, ok := want[k]; !ok {
			return false
		}
	}
	return true
}

// statusEdits are the ways of writing status into the frontmatter YAML y
// whose top-level node is root (nil when y holds no node), best first:
// the status key's value replaced where it is written; with no status key,
// a status line after the title's value (or the last key's), before the
// mapping, or at the end. The mapping's indent is its column, or that of
// its first key's line when a tag or an anchor stands before it.
func statusEdits(y string, root *yaml.Node, status, eol string) []string {
	if root == nil {
		return []string{y + "status: " + status + eol}
	}
	if root.Kind != yaml.MappingNode || len(root.Content) < 2 {
		return nil
	}
	top := yamlOffset(y, root.Line, 1)
	first := yamlOffset(y, root.Content[0].Line, 1)
	if top < 0 || first < 0 {
		return nil
	}
	indents := []int{root.Column - 1}
	if i := indentOf(y[first:lineEndAt(y, first)]); i != root.Column-1 {
		indents = append(indents, i)
	}
	anchor := len(root.Content) - 2
	for i := 0; i+1 < len(root.Content); i += 2 {
		switch root.Content[i].Value {
		case "status":
			var out []string
			for _, indent := range indents {
				if edit, ok := replaceValue(y, root.Content[i+1], indent, status); ok {
					out = append(out, edit)
				}
			}
			return out
		case "title":
			anchor = i
		}
	}
	var next *yaml.Node
	if anchor+2 < len(root.Content) {
		next = root.Content[anchor+2]
	}
	var out []string
	for _, indent := range indents {
		line := strings.Repeat(" ", indent) + "status: " + status + eol
		if at, ok := valueLinesEnd(y, root.Content[anchor], next, indent); ok {
			out = append(out, y[:at]+line+y[at:])
		}
		out = append(out, y[:top]+line+y[top:], y[:first]+line+y[first:], y+line)
	}
	return out
}

// replaceValue replaces the text of the value v of a key of the mapping
// indented by indent with status.
func replaceValue(y string, v *yaml.Node, indent int, status string) (string, bool) {
	start := yamlOffset(y, v.Line, v.Column)
	if start < 0 || v.Kind != yaml.ScalarNode {
		return "", false
	}
	var end int
	switch {
	case v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
		end = quotedEnd(y, start)
	case v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		end = blockEnd(y, start, indent)
	case v.Value == "" && start > 0 && y[start-1] == ':':
		// Nothing written after the colon (at most a comment): the
		// value goes right after it, and the blank before the comment
		// stays.
		return y[:start] + " " + status + y[start:], true
	default:
		end = plainEnd(y, start, indent)
	}
	if end < start {
		return "", false
	}
	rest := y[end:]
	if strings.HasPrefix(rest, "#") {
		rest = " " + rest // a comment needs a blank before it
	}
	return y[:start] + status + rest, true
}

// yamlOffset converts a node's 1-based line and column (in characters, as
// yaml.v3 counts them, breaking lines where it does) to a byte offset in
// y, or -1.
func yamlOffset(y string, line, col int) int {
	l, c := 1, 1
	for i := 0; i < len(y); {
		if l == line && c == col {
			return i
		}
		r, size := rune(y[i]), 1
		if r >= 0x80 {
			r, size = utf8.DecodeRuneInString(y[i:])
		}
		switch {
		case r == '\r' && i+1 < len(y) && y[i+1] == '\n':
			size = 2
			fallthrough
		case r == '\n' || r == '\r' || r == '\u0085' || r == '\u2028' || r == '\u2029':
			if l == line {
				return -1 // past the end of the line
			}
			l, c = l+1, 1
		default:
			c++
		}
		i += size
	}
	if l == line && c == col {
		return len(y)
	}
	return -1
}

// quotedEnd returns the offset after the closing quote of the quoted
// scalar at or after start (past a tag or anchor), or -1.
func quotedEnd(y string, start int) int {
	q := strings.IndexAny(y[start:], `"'`)
	if q < 0 {
		return -1
	}
	q += start
	for i := q + 1; i < len(y); i++ {
		switch {
		case y[q] == '"' && y[i] == '\\':
			i++
		case y[i] == y[q] && y[q] == '\'' && i+1 < len(y) && y[i+1] == '\'':
			i++
		case y[i] == y[q]:
			return i + 1
		}
	}
	return -1
}

// plainEnd returns the end of the plain scalar starting at start: the
// first line's text before a comment, and the lines indented deeper than
// the key's indent that continue it, until a comment or a line no deeper.
func plainEnd(y string, start, indent int) int {
	lineEnd := lineEndAt(y, start)
	end := start + len(beforeComment(y[start:lineEnd]))
	for pos := lineAfter(y, lineEnd); pos < len(y); {
		le := lineEndAt(y, pos)
		l := y[pos:le]
		t := strings.TrimLeft(l, " \t")
		switch {
		case t == "":
		case indentOf(l) <= indent || t[0] == '#':
			return end
		default:
			end = pos + len(l) - len(t) + len(beforeComment(t))
		}
		pos = lineAfter(y, le)
	}
	return end
}

// blockEnd returns the end of the literal or folded scalar whose indicator
// is at start: the last line indented deeper than the key's indent.
func blockEnd(y string, start, indent int) int {
	lineEnd := lineEndAt(y, start)
	end := start + len(strings.TrimRight(y[start:lineEnd], " \t"))
	for pos := lineAfter(y, lineEnd); pos < len(y); {
		le := lineEndAt(y, pos)
		l := y[pos:le]
		switch {
		case strings.TrimLeft(l, " \t") == "":
		case indentOf(l) <= indent:
			return end
		default:
			end = pos + len(strings.TrimRight(l, " \t"))
		}
		pos = lineAfter(y, le)
	}
	return end
}

// valueLinesEnd returns the start of the line after the value of key k of
// the mapping indented by indent (next is the following key, or nil): its
// last line that is not blank and not a comment at or above the indent.
func valueLinesEnd(y string, k, next *yaml.Node, indent int) (int, bool) {
	from := yamlOffset(y, k.Line, 1)
	to := len(y)
	if next != nil {
		if to = yamlOffset(y, next.Line, 1); to < 0 {
			return 0, false
		}
	}
	if from < 0 || to < from {
		return 0, false
	}
	at := from // an empty key ("?" alone) is placed after its line
	for pos := from; pos < to; {
		le := lineEndAt(y, pos)
		l := y[pos:le]
		t := strings.TrimLeft(l, " \t")
		if pos == from || t != "" && (t[0] != '#' || indentOf(l) > indent) {
			at = lineAfter(y, le)
		}
		pos = lineAfter(y, le)
	}
	if at > 0 && y[at-1] != '\n' {
		return 0, false
	}
	return at, true
}

// beforeComment returns s up to a comment (a "#" after a blank, or at the
// start), without the blanks before it.
func beforeComment(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t') {
			s = s[:i]
			break
		}
	}
	return strings.TrimRight(s, " \t\r")
}

// lineEndAt returns the offset of the end of the line holding pos (before
// its "\r\n" or "\n").
func lineEndAt(y string, pos int) int {
	end := len(y)
	if i := strings.IndexByte(y[pos:], '\n'); i >= 0 {
		end = pos + i
	}
	if end > pos && y[end-1] == '\r' {
		end--
	}
	return end
}

// lineAfter returns the start of the line after the one ending at lineEnd.
func lineAfter(y string, lineEnd int) int {
	if i := strings.IndexByte(y[lineEnd:], '\n'); i >= 0 {
		return lineEnd + i + 1
	}
	return len(y)
}

// indentOf counts the spaces that indent l.
func indentOf(l string) int {
	return len(l) - len(strings.TrimLeft(l, " "))
}
