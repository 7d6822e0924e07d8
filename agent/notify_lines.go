package agent

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// notifyPath is a path as the notify lines show it: as it is, or quoted
// when it holds spaces or control characters that could break or forge a line.
func notifyPath(rel string) string {
	for _, c := range rel {
		if unicode.IsSpace(c) || unicode.IsControl(c) {
			return strconv.Quote(rel)
		}
	}
	return rel
}

// oneLine collapses every run of white space (line breaks included) into
// one space, so that free text (a rejection reason) stays on its notify line.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
}

func firstRunes(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}
