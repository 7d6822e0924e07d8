package workspace

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// utf8BOM is the UTF-8 byte order mark.
const utf8BOM = "\uFEFF"

// Form is what a file's bytes hold beyond the text a model or an editor
// works with: read shows lines without the "\r" of their breaks and bytes
// that are not UTF-8 as U+FFFD (JSON has no other way), and an editor that
// opens a file decodes it (BOM dropped, invalid bytes replaced, line
// breaks made one kind) and encodes it again when it saves. Edits keep the
// form: new text gets the file's line breaks, and nothing outside the
// replaced bytes is re-encoded (docs/protocol.md, "Encodings and line
// endings").
type Form struct {
	// BOM: the text starts with the UTF-8 byte order mark.
	BOM bool
	// EOL is the file's first line break ("\n", "\r\n" or "\r"), the one
	// new lines get; "\n" when it has none.
	EOL string
	// Mixed: the text has line breaks of more than one kind.
	Mixed bool
	// Invalid is the byte offset of the first byte that is not UTF-8, or
	// -1 when the text is valid UTF-8.
	Invalid int
}

// FormOf returns the form of text (a file's bytes as a string).
func FormOf(text string) Form {
	f := Form{BOM: strings.HasPrefix(text, utf8BOM), Invalid: -1}
	if !utf8.ValidString(text) {
		f.Invalid = firstInvalid(text)
	}
	for start := 0; ; {
		end, next := nextLine(text, start)
		if next < 0 {
			break
		}
		switch eol := text[end:next]; {
		case f.EOL == "":
			f.EOL = eol
		case eol != f.EOL:
			f.Mixed = true
		}
		if f.Mixed {
			break
		}
		start = next
	}
	if f.EOL == "" {
		f.EOL = "\n"
	}
	return f
}

// firstInvalid is the offset of the first byte of text that is not part of
// a UTF-8 sequence (-1 if none).
func firstInvalid(text string) int {
	for i, r := range text {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(text[i:]); size == 1 {
				return i
			}
		}
	}
	return -1
}

// EditorSafe reports whether an editor that opens the file, applies an
// edit and saves it writes back the same bytes outside the edit: valid
// UTF-8 without a BOM (an editor drops the BOM from its buffer, so the
// positions of the first line would be off by one), and one kind of line
// break that editors keep, "\n" or "\r\n" (VS Code makes mixed breaks one
// kind and has no lone "\r").
func (f Form) EditorSafe() bool {
	return f.Invalid < 0 && !f.BOM && !f.Mixed && f.EOL != "\r"
}

// Breaks gives the line breaks of s (model text: "\n", or "\r\n") the
// file's kind, f.EOL. A file whose breaks are "\n" leaves s as it is.
func (f Form) Breaks(s string) string {
	if f.EOL == "\n" || !strings.ContainsAny(s, "\r\n") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if f.EOL == "\r" {
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	return strings.ReplaceAll(s, "\n", f.EOL)
}

// line reports the 1-based line of byte offset i in text (line breaks as
// LSP counts them).
func lineOf(text string, i int) int {
	return int(PositionOf(text, i).Line) + 1
}

// note tells the model what read's text of a file of form f does not show
// (empty for UTF-8 with "\n" breaks and no BOM).
func (f Form) note(text string) string {
	var parts []string
	if f.Invalid >= 0 {
		parts = append(parts, fmt.Sprintf("not UTF-8 (byte 0x%02X at line %d is the first that is not; such bytes show as U+FFFD): edit changes only the bytes it replaces, but old_string cannot match a U+FFFD shown for them, and write will not replace this file", text[f.Invalid], lineOf(text, f.Invalid)))
	}
	if f.BOM {
		parts = append(parts, "starts with a UTF-8 byte order mark (shown as U+FEFF; edit and write keep it)")
	}
	switch {
	case f.Mixed:
		parts = append(parts, "mixed line breaks (lines are shown without them; edit and write keep each line's, and new lines get "+eolName(f.EOL)+")")
	case f.EOL != "\n":
		parts = append(parts, "line breaks are "+eolName(f.EOL)+" (lines are shown without them; edit and write keep them)")
	}
	return strings.Join(parts, "; ")
}

// notFoundHint adds to "old_string not found" what may explain it in a
// file of form f: bytes that are not UTF-8.
func (f Form) notFoundHint(text string) string {
	if f.Invalid < 0 {
		return ""
	}
	return fmt.Sprintf(" (%s is not UTF-8 from line %d: text shown as U+FFFD cannot be matched; edit a part without it)", "the file", lineOf(text, f.Invalid))
}

// eolName names a line break for the model.
func eolName(eol string) string {
	switch eol {
	case "\r\n":
		return "CRLF"
	case "\r":
		return "CR"
	}
	return "LF"
}

// keepForm returns content (the whole new text a model wrote, with "\n"
// breaks) in the form of before: its BOM kept, new lines with its line
// break, and in a file with mixed breaks the lines at the start and end
// that content leaves as they are kept byte for byte.
func keepForm(before string, f Form, content string) string {
	bom := ""
	if f.BOM && !strings.HasPrefix(content, utf8BOM) {
		bom = utf8BOM
	}
	if !f.Mixed {
		return bom + f.Breaks(content)
	}
	old, now := strings.TrimPrefix(before, bom), content
	ol, nl := lspLines(old), lspLines(now)
	same := func(a, b textLine) bool {
		return old[a.start:a.end] == now[b.start:b.end] && (a.end == a.next) == (b.end == b.next)
	}
	pre := 0
	for pre < len(ol) && pre < len(nl) && same(ol[pre], nl[pre]) {
		pre++
	}
	suf := 0
	for suf < len(ol)-pre && suf < len(nl)-pre && same(ol[len(ol)-1-suf], nl[len(nl)-1-suf]) {
		suf++
	}
	// Byte spans: old[:keepHead] and old[keepTail:] stay, now[midStart:midEnd] is new.
	keepHead, midStart := 0, 0
	if pre > 0 {
		keepHead, midStart = ol[pre-1].next, nl[pre-1].next
	}
	keepTail, midEnd := len(old), len(now)
	if suf > 0 {
		keepTail, midEnd = ol[len(ol)-suf].start, nl[len(nl)-suf].start
	}
	return bom + old[:keepHead] + f.Breaks(now[midStart:midEnd]) + old[keepTail:]
}

// lspLines splits text into lines as LSP does ("\n", "\r\n" and a lone
// "\r" end a line); a text ending with a break has no empty last line.
func lspLines(text string) []textLine {
	var out []textLine
	for start := 0; start < len(text); {
		end, next := nextLine(text, start)
		if next < 0 {
			next = len(text)
		}
		out = append(out, textLine{start: start, end: end, next: next})
		start = next
	}
	return out
}
