package intel

import (
	"strings"

	"github.com/agentls/agentls/internal/udiff"
)

// Shift carries diagnostics of before's text over to after's (one edit of a
// file): a problem above the changed lines keeps its lines, one below moves
// by the lines the edit added or removed, and one inside the changed lines
// covers all of the changed lines of after (the edit may have moved it
// anywhere in them).
func Shift(diags []Diagnostic, before, after string) []Diagnostic {
	if before == after || len(diags) == 0 {
		return diags
	}
	b, a := strings.Split(before, "\n"), strings.Split(after, "\n")
	prefix, suffix := udiff.CommonEnds(b, a)
	oldEnd, newEnd := len(b)-suffix, len(a)-suffix // first unchanged line after the region
	delta := newEnd - oldEnd
	out := make([]Diagnostic, 0, len(diags))
	for _, d := range diags {
		start, end := int(d.Range.Start.Line), int(d.Range.End.Line)
		switch {
		case end < prefix:
		case start >= oldEnd:
			d.Range.Start.Line = uint32(start + delta)
			d.Range.End.Line = uint32(end + delta)
		default: // touches the changed lines
			d.Range.Start.Line = uint32(min(start, prefix))
			d.Range.End.Line = uint32(max(newEnd, end+delta, prefix))
		}
		out = append(out, d)
	}
	return out
}

// New returns the problems of current that the baseline (shifted through
// every edit since it was taken) does not hold: a problem is old when a
// baseline problem has its source, code and message and its start line
// lies within that baseline problem's lines.
func New(baseline, current []Diagnostic) []Diagnostic {
	var out []Diagnostic
	for _, d := range current {
		old := false
		for _, b := range baseline {
			if b.Source == d.Source && b.Code == d.Code && b.Message == d.Message &&
				d.Range.Start.Line >= b.Range.Start.Line && d.Range.Start.Line <= b.Range.End.Line {
				old = true
				break
			}
		}
		if !old {
			out = append(out, d)
		}
	}
	return out
}
