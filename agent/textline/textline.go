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

// Short is s as a one-line description of at most n runes: every run of
// white space, control characters and characters fonts draw blank (the
// braille blank, the Hangul fillers) becomes one space, and a longer text
// is cut, ending with "…". Repository text padded with blanks thus cannot
// push what a face writes after it (" (project)") out of view.
func Short(s string, n int) string {
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) || DrawnBlank(r) }), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
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
