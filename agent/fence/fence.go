// Package fence wraps text agentls did not write (a hand-off summary,
// project instructions, sub-agents' answers) in a data fence for a model
// prompt, so that nothing in the text can end the fence early.
package fence

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentls/agentls/agent/textline"
)

// fenceTag is the name of the data fence's tags.
const fenceTag = "untrusted-data"

// Wrap wraps text that agentls did not write (a hand-off summary, and
// later AGENTS.md, MCP results, sub-agents' answers) for a prompt:
//
//	<untrusted-data kind="summary">
//	…text…
//	</untrusted-data>
//
// Inside, every tag of the fence's name (opening or closing, any case, any
// spacing, under Unicode case folding: `</untrusted-data>`, `< / UNTRUSTED-DATA`) has its `<` written
// `&lt;`, so the text cannot end the fence early or open a nested one: what
// follows the real closing tag is agentls's again. kind keeps only
// [a-z0-9_-].
func Wrap(kind, text string) string {
	var b strings.Builder
	b.Grow(len(text) + 64)
	b.WriteString("<" + fenceTag + ` kind="` + fenceKind(kind) + "\">\n")
	b.WriteString(escapeFenceTags(text))
	if !strings.HasSuffix(text, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString("</" + fenceTag + ">\n")
	return b.String()
}

// fenceKind keeps the characters of kind that cannot leave its attribute.
func fenceKind(kind string) string {
	out := make([]byte, 0, len(kind))
	for i := 0; i < len(kind); i++ {
		c := kind[i]
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return "text"
	}
	return string(out)
}

// escapeFenceTags writes `&lt;` for each `<` that begins a tag of the
// fence's name: `<` (or its fullwidth or small form, `＜` `﹤`, which a
// model reads alike), then any spaces, tabs, line breaks and slashes, then
// the name in any case, fullwidth letters folded to ASCII and invisible
// format characters (zero-width, bidi) skipped.
func escapeFenceTags(text string) string {
	if !strings.ContainsAny(text, tagOpeners) {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) + 16)
	last := 0
	for i, r := range text {
		if isTagOpener(r) && opensFenceTag(text[i+utf8.RuneLen(r):]) {
			b.WriteString(text[last:i])
			b.WriteString("&lt;")
			last = i + utf8.RuneLen(r)
		}
	}
	b.WriteString(text[last:])
	return b.String()
}

// tagOpeners are the characters that read as a tag's `<`: itself, its
// fullwidth and small forms, and the angle brackets drawn like it (‹ ˂ ᐸ 〈
// ⟨ 〈).
const tagOpeners = "<\uFF1C\uFE64\u2039\u02C2\u1438\u3008\u27E8\u2329"

// isTagOpener reports whether r reads as a tag's `<`.
func isTagOpener(r rune) bool { return strings.ContainsRune(tagOpeners, r) }

// opensFenceTag tells whether rest (what follows a `<`) continues as a tag
// of the fence's name, under Unicode case folding (so `ſ` or the Kelvin
// sign, which fold to ASCII letters, count too), fullwidth forms folded
// (`／ｕｎｔｒｕｓｔｅｄ`) and letters of other scripts drawn alike folded,
// invisible characters skipped, any Unicode spacing (blank-drawn fillers
// too) and slash lookalikes before the name, and any dash in it.
func opensFenceTag(rest string) bool {
	var name []rune
	leading := true
	for _, r := range rest {
		r = foldConfusable(foldWidth(r))
		switch {
		case invisible(r):
			continue // a model reads the tag without it
		case leading && (unicode.IsSpace(r) || unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp) || textline.DrawnBlank(r) || isSlash(r)):
			continue
		}
		leading = false
		if unicode.Is(unicode.Pd, r) || r == '\u2212' {
			r = '-' // a hyphen, an en dash, a minus: all read as the name's dash
		}
		name = append(name, r)
		if len(name) == len(fenceTag) {
			break
		}
	}
	return len(name) == len(fenceTag) && strings.EqualFold(string(name), fenceTag)
}

// invisible reports whether r is drawn as nothing: a format character
// (Cf), a variation selector, or another default-ignorable code point (the
// combining grapheme joiner, the Hangul fillers).
func invisible(r rune) bool {
	return unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

// confusables are letters of other scripts drawn like the fence name's
// ASCII letters (Cyrillic а е ѕ ԁ, Greek υ, Armenian ո ս).
var confusables = map[rune]rune{
	'а': 'a', 'А': 'A', 'е': 'e', 'Е': 'E', 'ѕ': 's', 'Ѕ': 'S', 'ԁ': 'd', 'Т': 'T',
	'υ': 'u', 'ս': 'u', 'ո': 'n', 'ԝ': 'w',
}

// foldConfusable maps a letter drawn like one of the fence name's to it.
func foldConfusable(r rune) rune {
	if a, ok := confusables[r]; ok {
		return a
	}
	return r
}

// isSlash reports whether r reads as the `/` of a closing tag: the
// solidus, or the fraction, division and big solidus lookalikes
// (fullwidth is folded before).
func isSlash(r rune) bool { return r == '/' || r == '\u2044' || r == '\u2215' || r == '\u29F8' }

// foldWidth maps a fullwidth ASCII form (U+FF01–U+FF5E) to its ASCII
// character and the ideographic space to a space.
func foldWidth(r rune) rune {
	switch {
	case r >= 0xFF01 && r <= 0xFF5E:
		return r - 0xFEE0
	case r == 0x3000:
		return ' '
	}
	return r
}
