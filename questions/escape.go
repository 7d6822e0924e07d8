package questions

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape is the one server-side escape of text that reaches a person: a
// question, a button label, a title, a command, a path. C0 and C1 control
// characters, bidi and other format characters (category Cf: the
// right-to-left override U+202E, zero-width joiners, the BOM…), line and
// paragraph separators and invalid UTF-8 are shown as `\u202E` (or
// `\U000E0001`, `\xFF`), so what a person reads is what the text holds.
// Newlines and tabs are kept.
func Escape(s string) string { return escape(s, true) }

// EscapeLine is Escape for text shown on one line (a title, a label): a
// newline or tab is escaped too.
func EscapeLine(s string) string { return escape(s, false) }

func escape(s string, keepLayout bool) string {
	if clean(s, keepLayout) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02X`, s[i])
		case !Shown(r, keepLayout) && r > 0xFFFF:
			fmt.Fprintf(&b, `\U%08X`, r)
		case !Shown(r, keepLayout):
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// clean reports whether s needs no escaping.
func clean(s string, keepLayout bool) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || !Shown(r, keepLayout) {
			return false
		}
		i += size
	}
	return true
}

// Shown reports whether r may reach a person as itself: not a control
// character (C0, DEL, C1), not a format character (Cf: bidi controls,
// zero-width characters), not a line or paragraph separator, not a
// surrogate or private-use-free noncharacter. Newline and tab are shown
// when layout is kept.
func Shown(r rune, keepLayout bool) bool {
	switch {
	case r == '\n' || r == '\t':
		return keepLayout
	case r < 0x20, r >= 0x7F && r <= 0x9F:
		return false
	case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r), unicode.Is(unicode.Cs, r):
		return false
	case r == utf8.RuneError:
		return true // a real U+FFFD in valid text
	}
	return true
}
