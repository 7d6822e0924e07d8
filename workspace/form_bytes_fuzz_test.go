package workspace_test

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/workspace"
)

// token is a piece of a file as the oracle decodes it: its bytes and what
// an editor shows for them.
type token struct {
	raw   []byte
	shown string
}

// oracleTokens decodes data as VS Code does (BOM dropped, each maximal
// invalid UTF-8 subpart one U+FFFD, line breaks as eol) or, latin1, each
// byte as its Latin-1 character with line breaks as they are.
func oracleTokens(data []byte, eol string, latin1 bool) []token {
	var out []token
	if !latin1 && bytes.HasPrefix(data, []byte("\uFEFF")) {
		out = append(out, token{raw: data[:3]})
		data = data[3:]
	}
	for i := 0; i < len(data); {
		switch {
		case bytes.HasPrefix(data[i:], []byte("\r\n")):
			out = append(out, token{data[i : i+2], eol})
			if latin1 {
				out[len(out)-1].shown = "\r\n"
			}
			i += 2
			continue
		case data[i] == '\r' || data[i] == '\n':
			out = append(out, token{data[i : i+1], eol})
			if latin1 {
				out[len(out)-1].shown = string(data[i])
			}
			i++
			continue
		case latin1:
			out = append(out, token{data[i : i+1], string(rune(data[i]))})
			i++
			continue
		}
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			// The longest start of a sequence that some valid sequence
			// begins with: its bytes are one U+FFFD.
			n = 1
			for k := 2; k <= 3 && i+k <= len(data); k++ {
				if prefixOfValid(data[i : i+k]) {
					n = k
				}
			}
		}
		out = append(out, token{data[i : i+n], string(r)})
		i += n
	}
	return out
}

// prefixOfValid reports whether b, whose first byte does not start a
// valid sequence there, is the start of some valid UTF-8 sequence: the
// standard library's FullRune is false for exactly those.
func prefixOfValid(b []byte) bool { return !utf8.FullRune(b) }

// shape turns fuzz bytes into one kind of file: as given, Latin-1 text,
// lone CR breaks, mixed breaks, a BOM before UTF-8.
func shape(kind byte, data []byte) []byte {
	switch kind % 5 {
	case 1:
		out := bytes.Clone(data)
		for i, c := range out {
			if c >= 0x80 && c < 0xA0 {
				out[i] = c + 0x40 // printable Latin-1
			}
		}
		return out
	case 2:
		return bytes.ReplaceAll(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\r")), []byte("\n"), []byte("\r"))
	case 3:
		var out []byte
		for i, line := range bytes.Split(data, []byte("\n")) {
			if i > 0 {
				out = append(out, [][]byte{[]byte("\r\n"), []byte("\n"), []byte("\r")}[i%3]...)
			}
			out = append(out, line...)
		}
		return out
	case 4:
		return append([]byte("\uFEFF"), bytes.ToValidUTF8(data, []byte("?"))...)
	}
	return data
}

// latin1Text is the Latin-1 decoding of s (each byte a character).
func latin1Text(b []byte) string {
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return string(r)
}

// lf is s with every line break "\n".
func lf(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// FuzzEditBytes: random edits of random files of each kind, decoded as
// VS Code decodes them (or as Latin-1), against an oracle that decodes the
// file into tokens, replaces some with the new text and encodes it: when
// EditBytes writes, the result shows as the edited text, the BOM stays,
// and as many of the file's tokens stay, first and last, as the oracle's
// bytes keep when they show the edited text; and it
// writes whenever the oracle's bytes show so in a file of one kind of
// line break (no "\r" a new break could join) with nothing ambiguous in
// the new text.
func FuzzEditBytes(f *testing.F) {
	f.Add([]byte("caf\xE9\nONE \xE9\nTWO\nend\n"), byte(1), false, uint16(2), uint16(3), "X\nY")
	f.Add([]byte("a\rONE\rTWO\rb\r"), byte(2), false, uint16(2), uint16(3), "NEW\n")
	f.Add([]byte("a\r\nONE\nTWO\r\nd\n"), byte(0), false, uint16(1), uint16(4), "\nZ")
	f.Add([]byte("ONE first\nTWO\n"), byte(4), false, uint16(0), uint16(1), "\u00e9")
	f.Add([]byte("caf\xE9 \xE2\x82 \xF0\x9F\n"), byte(0), true, uint16(3), uint16(5), "\u00c9t\u00e9")
	f.Add([]byte("one\nTWO\n"), byte(0), false, uint16(4), uint16(4), "😀\n")
	f.Fuzz(func(t *testing.T, raw []byte, kind byte, latin1 bool, a, b uint16, newText string) {
		if len(raw) > 256 || len(newText) > 64 {
			return
		}
		disk := shape(kind, raw)
		var before, eol string
		if latin1 {
			before = latin1Text(disk)
		} else {
			before = lspclient.EditorText(disk)
			eol = "\n"
			if strings.Contains(before, "\r\n") {
				eol = "\r\n"
			}
		}
		toks := oracleTokens(disk, eol, latin1)
		var all strings.Builder
		for _, tk := range toks {
			all.WriteString(tk.shown)
		}
		if all.String() != before {
			t.Fatalf("oracle tokens show %q, the editor %q", all.String(), before)
		}
		lo, hi := int(a)%(len(toks)+1), int(b)%(len(toks)+1)
		if lo > hi {
			lo, hi = hi, lo
		}
		if lo == 0 && len(toks) > 0 && len(toks[0].shown) == 0 {
			lo = 1 // the BOM stays
			hi = max(hi, lo)
		}
		newText = strings.ToValidUTF8(newText, "")
		if latin1 {
			newText = strings.Map(func(r rune) rune { return r % 0x100 }, newText)
		} else {
			newText = strings.TrimPrefix(lf(newText), "\uFEFF")
			newText = strings.ReplaceAll(newText, "\n", eol)
		}
		var pre, post []byte
		var after strings.Builder
		for _, tk := range toks[:lo] {
			pre = append(pre, tk.raw...)
			after.WriteString(tk.shown)
		}
		after.WriteString(newText)
		for _, tk := range toks[hi:] {
			post = append(post, tk.raw...)
			after.WriteString(tk.shown)
		}
		show := func(data []byte) string {
			if latin1 {
				return lf(latin1Text(data))
			}
			return lf(lspclient.EditorText(data))
		}
		form := workspace.FormOf(string(disk))
		enc := form.Breaks(newText)
		if latin1 {
			bs := make([]byte, 0, len(enc))
			for _, r := range enc {
				bs = append(bs, byte(r))
			}
			enc = string(bs)
		}
		oracle := append(append(append([]byte{}, pre...), enc...), post...)
		oracleOK := show(oracle) == lf(after.String())
		got, ok := workspace.EditBytes(disk, before, after.String())
		if ok {
			// As many of the file's tokens kept, first and last, as the
			// oracle keeps (which of two tokens shown alike a deletion
			// takes may differ), the BOM among them.
			rest, kept := got, 0
			for _, tk := range toks {
				if !bytes.HasPrefix(rest, tk.raw) {
					break
				}
				rest, kept = rest[len(tk.raw):], kept+1
			}
			first := kept
			for i := len(toks) - 1; i >= first && bytes.HasSuffix(rest, toks[i].raw); i-- {
				rest, kept = rest[:len(rest)-len(toks[i].raw)], kept+1
			}
			if oracleOK && kept < lo+len(toks)-hi || bytes.HasPrefix(disk, []byte("\uFEFF")) != bytes.HasPrefix(got, []byte("\uFEFF")) {
				t.Fatalf("bytes outside the edit changed:\n disk %q\n  got %q\n oracle keeps %q and %q", disk, got, pre, post)
			}
			// A file of ASCII bytes does not tell an editor showing it as
			// Latin-1 from one showing UTF-8: new text goes in UTF-8.
			unknown := latin1 && !bytes.ContainsFunc(disk, func(r rune) bool { return r >= 0x80 || r == utf8.RuneError })
			if !unknown && show(got) != lf(after.String()) {
				t.Fatalf("the result shows\n %q\nwant %q\n(disk %q, got %q)", show(got), lf(after.String()), disk, got)
			}
			return
		}
		single := !form.Mixed && form.EOL != "\r"
		ambiguous := form.Invalid >= 0 && strings.ContainsRune(newText, utf8.RuneError)
		if !latin1 && single && !ambiguous && oracleOK {
			t.Fatalf("not written, but the oracle's bytes %q show the edit (disk %q, before %q, after %q)", oracle, disk, before, after.String())
		}
	})
}
