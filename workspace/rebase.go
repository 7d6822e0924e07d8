package workspace

import (
	"fmt"
	"sort"
	"strings"
)

// ConflictError reports a change that cannot be carried onto a document that
// changed since the change was computed: both touched the same text.
type ConflictError struct {
	Rel string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s changed while this edit was being made, in the same place; read it again and redo the edit", e.Rel)
}

// Rebase carries the change before→after onto current, the document's text
// now (before is what the change was computed on). It returns the text to
// write: after itself when nothing changed meanwhile, current when the
// change is there already (same=true: writing it again would be a no-op),
// or both changes merged when the places they changed are apart. A change
// of the same place to different text is a *ConflictError (rel names the
// document): a second diff is never laid on top of a first one.
//
// The places are the changed part of each changed line when neither side
// adds or removes a line (a plan's tick, a status), else the one region
// between the common prefix and suffix.
func Rebase(rel, before, current, after string) (text string, same bool, err error) {
	switch {
	case current == before:
		return after, after == current, nil
	case current == after:
		return current, true, nil
	}
	regions := append(changedRegions(before, current), changedRegions(before, after)...)
	sort.SliceStable(regions, func(i, j int) bool {
		if regions[i].start != regions[j].start {
			return regions[i].start < regions[j].start
		}
		return regions[i].end < regions[j].end
	})
	var b strings.Builder
	at := 0
	var prev *region
	for i := range regions {
		r := &regions[i]
		if prev != nil && *r == *prev {
			continue // both sides made this very change
		}
		if prev != nil && (r.start < prev.end || r.start == prev.start) {
			return "", false, &ConflictError{Rel: rel}
		}
		b.WriteString(before[at:r.start])
		b.WriteString(r.text)
		at, prev = r.end, r
	}
	b.WriteString(before[at:])
	merged := b.String()
	return merged, merged == current, nil
}

// region replaces before[start:end] by text.
type region struct {
	start, end int
	text       string
}

// changedRegions lists where other differs from before, in before's byte
// offsets: the changed part of each changed line when both have as many
// lines, else one region between the common prefix and suffix (none when
// equal).
func changedRegions(before, other string) []region {
	if before == other {
		return nil
	}
	bl, ol := splitKeep(before), splitKeep(other)
	if len(bl) == len(ol) {
		var out []region
		off := 0
		for i := range bl {
			if bl[i] != ol[i] {
				pre, suf := commonAffixes(bl[i], ol[i])
				out = append(out, region{start: off + pre, end: off + len(bl[i]) - suf, text: ol[i][pre : len(ol[i])-suf]})
			}
			off += len(bl[i])
		}
		return out
	}
	pre, suf := commonAffixes(before, other)
	return []region{{start: pre, end: len(before) - suf, text: other[pre : len(other)-suf]}}
}

// splitKeep splits text into lines, each with its line break.
func splitKeep(text string) []string {
	return strings.SplitAfter(text, "\n")
}
