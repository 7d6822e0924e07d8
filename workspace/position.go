package workspace

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Line breaks follow LSP: "\n", "\r\n" and a lone "\r" each end a line.
// Characters count UTF-16 code units: a rune above U+FFFF counts two, and an
// invalid UTF-8 byte counts one (editors show it as U+FFFD).

// lineBreakAt reports the length of the line break that starts at text[i]
// (0 if none).
func lineBreakAt(text string, i int) int {
	switch text[i] {
	case '\n':
		return 1
	case '\r':
		if i+1 < len(text) && text[i+1] == '\n' {
			return 2
		}
		return 1
	}
	return 0
}

// nextLine returns the end of the content of the line starting at start and
// the start of the next line (-1 if this line is the last one).
func nextLine(text string, start int) (end, next int) {
	i := strings.IndexAny(text[start:], "\r\n")
	if i < 0 {
		return len(text), -1
	}
	end = start + i
	return end, end + lineBreakAt(text, end)
}

// utf16Len is the number of UTF-16 code units in s.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16Width(r)
	}
	return n
}

// utf16Width is the number of UTF-16 code units of r: two above U+FFFF,
// else one (an invalid UTF-8 byte decodes as U+FFFD, one unit).
func utf16Width(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// byteOffsetInLine returns the byte offset within line of UTF-16 column char.
// A column past the end clamps to len(line); a column inside a surrogate pair
// rounds down to the start of that rune.
func byteOffsetInLine(line string, char int) int {
	units := 0
	for i, r := range line {
		w := utf16Width(r)
		if units+w > char {
			return i
		}
		units += w
	}
	return len(line)
}

// OffsetOf converts an LSP position into a byte offset in text. A line past
// the last one is an error, except the position just after the last line
// (line = number of lines, character 0), which LSP clients use for "the end of
// the document" and which maps to len(text). A character past the end of its
// line clamps to the end of the line (before its line break).
func OffsetOf(text string, pos Position) (int, error) {
	start := 0
	for l := uint32(0); l < pos.Line; l++ {
		_, next := nextLine(text, start)
		if next < 0 {
			if l+1 == pos.Line && pos.Character == 0 {
				return len(text), nil
			}
			return 0, fmt.Errorf("position %d:%d: line %d is out of range (the text has %d lines)",
				pos.Line, pos.Character, pos.Line, l+1)
		}
		start = next
	}
	end, _ := nextLine(text, start)
	return start + byteOffsetInLine(text[start:end], int(pos.Character)), nil
}

// PositionOf converts a byte offset into an LSP position. The offset is
// clamped to [0, len(text)]; an offset inside a rune or between the "\r" and
// "\n" of a line break is moved back to the nearest boundary.
func PositionOf(text string, offset int) Position {
	offset = max(0, min(offset, len(text)))
	for offset > 0 && offset < len(text) && !runeBoundary(text, offset) {
		offset--
	}
	if offset > 0 && offset < len(text) && text[offset] == '\n' && text[offset-1] == '\r' {
		offset--
	}
	c := posCursor{text: text}
	return c.at(offset)
}

// posCursor converts increasing byte offsets to positions in one pass over
// the text (PositionOf for each would be quadratic).
type posCursor struct {
	text  string
	line  uint32
	start int // byte offset of the start of line
}

// at returns the position of offset, which must be >= every earlier offset
// and on a rune boundary outside a "\r\n" pair.
func (c *posCursor) at(offset int) Position {
	for {
		_, next := nextLine(c.text, c.start)
		if next < 0 || offset < next {
			break
		}
		c.line++
		c.start = next
	}
	return Position{Line: c.line, Character: uint32(utf16Len(c.text[c.start:offset]))}
}

// ApplyEdits applies edits whose ranges refer to the original text and do not
// overlap. They may come in any order; insertions at the same position are
// applied in the order given.
func ApplyEdits(text string, edits []TextEdit) (string, error) {
	type span struct {
		start, end int
		text       string
	}
	spans := make([]span, 0, len(edits))
	for i, e := range edits {
		s, err := OffsetOf(text, e.Range.Start)
		if err != nil {
			return "", fmt.Errorf("edit %d: start: %w", i, err)
		}
		en, err := OffsetOf(text, e.Range.End)
		if err != nil {
			return "", fmt.Errorf("edit %d: end: %w", i, err)
		}
		if en < s {
			return "", fmt.Errorf("edit %d: range end %d:%d is before its start %d:%d",
				i, e.Range.End.Line, e.Range.End.Character, e.Range.Start.Line, e.Range.Start.Character)
		}
		spans = append(spans, span{s, en, e.NewText})
	}
	slices.SortStableFunc(spans, func(a, b span) int { return a.start - b.start })
	var b strings.Builder
	b.Grow(len(text))
	last := 0
	for _, s := range spans {
		if s.start < last {
			return "", fmt.Errorf("edits overlap near byte %d (edit ranges must not overlap)", s.start)
		}
		b.WriteString(text[last:s.start])
		b.WriteString(s.text)
		last = s.end
	}
	b.WriteString(text[last:])
	return b.String(), nil
}

// runeBoundary reports whether offset i of s (0 < i < len(s)) starts a rune
// as ranging over s decodes it: not inside a valid UTF-8 sequence. A byte
// of an invalid sequence (a lone continuation byte) is a rune of its own.
func runeBoundary(s string, i int) bool {
	for k := 1; k <= utf8.UTFMax-1 && i-k >= 0; k++ {
		if utf8.RuneStart(s[i-k]) {
			_, size := utf8.DecodeRuneInString(s[i-k:])
			return size <= k
		}
	}
	return true
}
