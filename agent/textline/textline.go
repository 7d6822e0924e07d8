// Package textline writes free text and paths as parts of one line: the
// notify lines agentls adds to a conversation ("[plan-mode] approved
// plan=…"), list entries and one-line descriptions, which a line break or a
// control character in the text must not break or forge.
package textline

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Path is a path as the notify lines show it: as it is, or quoted when it
// holds spaces or control characters that could break or forge a line.
func Path(rel string) string {
	for _, c := range rel {
		if unicode.IsSpace(c) || unicode.IsControl(c) {
			return strconv.Quote(rel)
		}
	}
	return rel
}

// OneLine collapses every run of white space (line breaks included) into
// one space, so that free text (a rejection reason) stays on its notify line.
func OneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
}

// FirstRunes is s with its white space collapsed, cut to its first n runes.
func FirstRunes(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}

// Short is s as a one-line description of at most n columns: every run
// of white space, control characters and characters fonts draw blank (the
// braille blank, the Hangul fillers) becomes one space, and a longer text
// is cut, ending with "…". Repository text padded with blanks, or written
// in wide characters (CJK, full-width forms), thus cannot push what a face
// writes after it (" (project)") out of view.
func Short(s string, n int) string {
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) || DrawnBlank(r) }), " ")
	if Columns(s) <= n {
		return s
	}
	cols := 0
	for i, r := range s {
		if cols+RuneColumns(r) > n-1 {
			return s[:i] + "…"
		}
		cols += RuneColumns(r)
	}
	return s
}

// Columns is how many terminal columns s takes (RuneColumns of each rune).
func Columns(s string) int {
	n := 0
	for _, r := range s {
		n += RuneColumns(r)
	}
	return n
}

// RuneColumns is how many columns r takes in a terminal or a monospaced
// editor: 2 for the East Asian wide and full-width characters (CJK,
// Hangul syllables, full-width forms, most emoji), 0 for combining marks
// and invisible format characters, else 1. An approximation of Unicode's
// East Asian Width (UAX #11) by its main blocks, enough to bound a line.
func RuneColumns(r rune) int {
	switch {
	case unicode.Is(unicode.Mn, r), unicode.Is(unicode.Me, r), unicode.Is(unicode.Cf, r):
		return 0
	case r >= 0x1100 && r <= 0x115F, // Hangul Jamo initials
		r >= 0x2E80 && r <= 0x303E, // CJK radicals … CJK symbols
		r >= 0x3041 && r <= 0x33FF, // kana … CJK compatibility
		r >= 0x3400 && r <= 0x4DBF, // CJK extension A
		r >= 0x4E00 && r <= 0x9FFF, // CJK unified ideographs
		r >= 0xA000 && r <= 0xA4CF, // Yi
		r >= 0xAC00 && r <= 0xD7A3, // Hangul syllables
		r >= 0xF900 && r <= 0xFAFF, // CJK compatibility ideographs
		r >= 0xFE30 && r <= 0xFE4F, // CJK compatibility forms
		r >= 0xFF00 && r <= 0xFF60, // full-width forms
		r >= 0xFFE0 && r <= 0xFFE6,
		r >= 0x1F300 && r <= 0x1F64F, // emoji
		r >= 0x1F900 && r <= 0x1F9FF,
		r >= 0x20000 && r <= 0x3FFFD: // CJK extensions B…
		return 2
	}
	return 1
}

// DrawnBlank reports whether r is no space to Unicode but drawn blank
// (the braille blank, the Hangul fillers).
func DrawnBlank(r rune) bool {
	switch r {
	case '\u115F', '\u1160', '\u3164', '\uFFA0', '\u2800':
		return true
	}
	return false
}
