package workspace

import (
	"strings"
	"unicode/utf8"
)

// An editor holds a file as decoded text: VS Code drops a UTF-8 BOM, shows
// each maximal invalid UTF-8 subpart as one U+FFFD (the WHATWG decoder) and
// makes line breaks one kind; an editor set to Latin-1 shows each byte as
// the character of that number. Saving such a buffer re-encodes the file.
// EditBytes applies an edit of the buffer to the file's bytes instead, and
// DecodesTo tells whether a buffer's text is a file's bytes so decoded.

// decoding maps text (an editor's buffer) onto disk (the file's bytes)
// token by token: a character, a line break, an invalid run.
type decoding struct {
	// at[i] is the offset in disk of the token that starts at offset i of
	// text (and at[len(text)] is len(disk)); -1 inside a token.
	at []int
	// latin1: some byte was shown as its Latin-1 character; utf8: some
	// multi-byte UTF-8 character was shown as itself.
	latin1, utf8 bool
}

// decode aligns text with disk; ok is false when text is not disk as an
// editor decodes it (the user's unsaved typing, another encoding).
func decode(disk []byte, text string) (d decoding, ok bool) {
	d.at = make([]int, len(text)+1)
	for k := range d.at {
		d.at[k] = -1
	}
	i, j := 0, 0
	if strings.HasPrefix(string(disk), utf8BOM) && !strings.HasPrefix(text, utf8BOM) {
		i = len(utf8BOM)
	}
	for j < len(text) {
		d.at[j] = i
		if i >= len(disk) {
			return d, false
		}
		if c := text[j]; c == '\r' || c == '\n' {
			// Any line break shows any: editors make them one kind.
			if disk[i] != '\r' && disk[i] != '\n' {
				return d, false
			}
			i += lineBreakAt(string(disk), i)
			j += lineBreakAt(text, j)
			continue
		}
		r, size := utf8.DecodeRuneInString(text[j:])
		dr, dsize := utf8.DecodeRune(disk[i:])
		switch {
		case (dr != utf8.RuneError || dsize > 1) && dr == r:
			d.utf8 = d.utf8 || dsize > 1
			i += dsize
		case dr == utf8.RuneError && dsize == 1 && r == utf8.RuneError && size > 1:
			i += invalidRun(disk[i:])
		case disk[i] >= 0x80 && r == rune(disk[i]):
			d.latin1 = true
			i++
		default:
			return d, false
		}
		j += size
	}
	d.at[len(text)] = i
	return d, i == len(disk)
}

// invalidRun is the length of the maximal subpart of an invalid UTF-8
// sequence that b starts with (at least 1): the bytes one U+FFFD stands
// for in the WHATWG decoder. The test editor's decoder
// (internal/lspclient/textmodel.go) is written apart on purpose: the
// fuzz test holds one against the other.
func invalidRun(b []byte) int {
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 2
	case c == 0xE0:
		need, lo = 3, 0xA0
	case c == 0xED:
		need, hi = 3, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		need = 3
	case c == 0xF0:
		need, lo = 4, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 4
	case c == 0xF4:
		need, hi = 4, 0x8F
	default:
		return 1
	}
	n := 1
	for n < need && n < len(b) && b[n] >= lo && b[n] <= hi {
		n++
		lo, hi = 0x80, 0xBF
	}
	return n
}

// DecodesTo reports whether text is disk as an editor shows it (BOM
// dropped, invalid UTF-8 as U+FFFD or bytes as Latin-1, any line break as
// any): the buffer holds no change the file does not.
func DecodesTo(disk []byte, text string) bool {
	_, ok := decode(disk, text)
	return ok
}

// EditBytes returns disk with the edit that made after of before applied
// to its bytes, when before is disk as an editor decoded it (DecodesTo):
// the bytes outside the edit stay as they are (BOM, line breaks of each
// kind, bytes that are not UTF-8), and the new text gets the file's line
// break (its first) and, in a file the editor shows as Latin-1, Latin-1.
// ok is false when before is not disk decoded, when the new text cannot be
// written so (a character Latin-1 has not; U+FFFD in a file that is not
// UTF-8: it would stand for bytes the edit does not know), or when the
// result would not show as after (a new line break joining a lone "\r"
// into a CRLF).
func EditBytes(disk []byte, before, after string) (out []byte, ok bool) {
	d, ok := decode(disk, before)
	if !ok {
		return nil, false
	}
	// The changed span, before[p:len(before)-s] → after[p:len(after)-s],
	// on whole tokens of before: the common prefix taken first, else the
	// common suffix (an insertion of text that repeats its neighbour fits
	// either side of it); then each one token wider on both sides (a new
	// line break next to a kept lone "\r" would join it into a CRLF).
	p1 := commonPrefix(before, after, 0)
	s1 := commonSuffix(before, after, p1)
	s2 := commonSuffix(before, after, 0)
	p2 := commonPrefix(before, after, s2)
	for _, wider := range []int{0, 1} {
		for _, ps := range [][2]int{{p1, s1}, {p2, s2}} {
			p, s := d.tokenStart(before, after, max(ps[0]-wider, 0)), d.tokenEnd(before, max(ps[1]-wider, 0))
			if out, ok = d.splice(disk, after, p, s, len(before)); ok {
				return out, true
			}
		}
	}
	return nil, false
}

// commonPrefix is the length of the common prefix of a and b, leaving
// their last s bytes out.
func commonPrefix(a, b string, s int) int {
	p := 0
	for p < len(a)-s && p < len(b)-s && a[p] == b[p] {
		p++
	}
	return p
}

// commonSuffix is the length of the common suffix of a and b, leaving
// their first p bytes out.
func commonSuffix(a, b string, p int) int {
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return s
}

// tokenStart backs p, a length of common prefix of before and after, to
// the start of a token of before (a character start in both).
func (d decoding) tokenStart(before, after string, p int) int {
	for p > 0 && (d.at[p] < 0 || p < len(before) && !utf8.RuneStart(before[p]) || p < len(after) && !utf8.RuneStart(after[p])) {
		p--
	}
	return p
}

// tokenEnd shortens s, a length of common suffix of before and after, to
// start at a token of before.
func (d decoding) tokenEnd(before string, s int) int {
	for s > 0 && (d.at[len(before)-s] < 0 || !utf8.RuneStart(before[len(before)-s])) {
		s--
	}
	return s
}

// splice writes after[p:len(after)-s] over the bytes of the tokens of
// before (n bytes long) between p and n-s, in the file's form; ok is false
// when the result would not show as after.
func (d decoding) splice(disk []byte, after string, p, s, n int) ([]byte, bool) {
	mid := after[p : len(after)-s]
	f := FormOf(string(disk))
	if f.Invalid >= 0 && strings.ContainsRune(mid, utf8.RuneError) {
		return nil, false
	}
	enc := []byte(f.Breaks(mid))
	if d.latin1 {
		var ok bool
		if d.utf8 {
			if !isASCII(mid) { // not one encoding: the new bytes are unknown
				return nil, false
			}
		} else if enc, ok = encodeLatin1(string(enc)); !ok {
			return nil, false
		}
	}
	start, end := d.at[p], d.at[n-s]
	out := make([]byte, 0, len(disk)-(end-start)+len(enc))
	out = append(append(append(out, disk[:start]...), enc...), disk[end:]...)
	if !DecodesTo(out, after) {
		return nil, false
	}
	return out, true
}

// isASCII reports whether s has only ASCII characters.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
