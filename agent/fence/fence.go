// Package fence wraps text agentls did not write (a hand-off summary,
// project instructions, sub-agents' answers) in a data fence for a model
// prompt, so that nothing in the text can end the fence early.
package fence

import "strings"

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
// fence's name: `<`, then any spaces, tabs, line breaks and slashes, then
// the name in any case.
func escapeFenceTags(text string) string {
	if !strings.Contains(text, "<") {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) + 16)
	last := 0
	for i := 0; i < len(text); i++ {
		if text[i] == '<' && opensFenceTag(text[i+1:]) {
			b.WriteString(text[last:i])
			b.WriteString("&lt;")
			last = i + 1
		}
	}
	b.WriteString(text[last:])
	return b.String()
}

// opensFenceTag tells whether rest (what follows a `<`) continues as a tag
// of the fence's name, under Unicode case folding (so `ſ` or the Kelvin
// sign, which fold to ASCII letters, count too).
func opensFenceTag(rest string) bool {
	j := 0
	for j < len(rest) && (rest[j] == ' ' || rest[j] == '\t' || rest[j] == '\n' || rest[j] == '\r' || rest[j] == '/') {
		j++
	}
	name := rest[j:]
	n := 0
	for i := range name {
		if n == len(fenceTag) {
			name = name[:i]
			break
		}
		n++
	}
	return n == len(fenceTag) && strings.EqualFold(name, fenceTag)
}
