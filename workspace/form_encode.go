package workspace

import (
	"strings"
	"unicode/utf8"
)

// EncodeLike returns the bytes to write for after, the text of an editor's
// buffer after an edit, over a file that holds disk, when before is the
// buffer's text before the edit: in the file's form, as the editor's own
// save would write it, so that nothing outside the edit changes. The form
// is found by encoding before: as it is, with the file's BOM, with its
// line breaks (an editor shows "\r\n" lines without their "\r"), as
// Latin-1 (an editor that decoded bytes that are not UTF-8 so). A file
// that is plain (UTF-8, no BOM, no "\r") takes after as it is (the buffer
// may hold the user's unsaved typing too). ok is false otherwise: the
// bytes after would be written in are not known, and nothing should be.
func EncodeLike(disk []byte, before, after string) (out []byte, ok bool) {
	if string(disk) == before {
		return []byte(after), true
	}
	f := FormOf(string(disk))
	for _, bom := range []bool{false, f.BOM} {
		for _, breaks := range []bool{false, !f.Mixed && f.EOL != "\n"} {
			for _, latin1 := range []bool{false, f.Invalid >= 0} {
				enc := func(s string) ([]byte, bool) {
					if bom && !strings.HasPrefix(s, utf8BOM) {
						s = utf8BOM + s
					}
					if breaks {
						s = f.Breaks(s)
					}
					if latin1 {
						return encodeLatin1(s)
					}
					return []byte(s), true
				}
				if b, ok := enc(before); ok && string(b) == string(disk) {
					return enc(after)
				}
			}
		}
	}
	if f.Invalid < 0 && !f.BOM && strings.IndexByte(string(disk), '\r') < 0 {
		return []byte(after), true
	}
	return nil, false
}

// encodeLatin1 encodes s as ISO 8859-1; ok is false when s has a character
// above U+00FF.
func encodeLatin1(s string) ([]byte, bool) {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xFF {
			return nil, false
		}
		out = append(out, byte(r))
	}
	return out, true
}

// SameDecoded reports whether text is disk, a file that is not UTF-8, as a
// client decoded it (each run of bytes that are not UTF-8 as U+FFFD): not
// newer text, so the disk, which has the file's bytes, is the truth.
func SameDecoded(disk []byte, text string) bool {
	if utf8.Valid(disk) {
		return false
	}
	return collapseFFFD(strings.ToValidUTF8(string(disk), "\uFFFD")) == collapseFFFD(text)
}

// collapseFFFD makes each run of U+FFFD in s one.
func collapseFFFD(s string) string {
	for strings.Contains(s, "\uFFFD\uFFFD") {
		s = strings.ReplaceAll(s, "\uFFFD\uFFFD", "\uFFFD")
	}
	return s
}
