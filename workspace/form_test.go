package workspace

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func TestFormOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text     string
		want     Form
		safe     bool
		noteHas  string
		noteNone bool
	}{
		{text: "a\nb\n", want: Form{EOL: "\n", Invalid: -1}, safe: true, noteNone: true},
		{text: "", want: Form{EOL: "\n", Invalid: -1}, safe: true, noteNone: true},
		{text: "a\r\nb\r\n", want: Form{EOL: "\r\n", Invalid: -1}, safe: true, noteHas: "CRLF"},
		{text: "a\rb\r", want: Form{EOL: "\r", Invalid: -1}, noteHas: "CR"},
		{text: "a\r\nb\n", want: Form{EOL: "\r\n", Mixed: true, Invalid: -1}, noteHas: "mixed"},
		{text: "\uFEFFa\n", want: Form{BOM: true, EOL: "\n", Invalid: -1}, noteHas: "byte order mark"},
		{text: "ok\ncaf\xE9\n", want: Form{EOL: "\n", Invalid: 6}, noteHas: "byte 0xE9 at line 2"},
		{text: "\uFFFD real replacement\n", want: Form{EOL: "\n", Invalid: -1}, safe: true, noteNone: true},
	}
	for _, tt := range tests {
		f := FormOf(tt.text)
		if f != tt.want {
			t.Errorf("FormOf(%q) = %+v, want %+v", tt.text, f, tt.want)
		}
		if f.EditorSafe() != tt.safe {
			t.Errorf("FormOf(%q).EditorSafe() = %v", tt.text, !tt.safe)
		}
		note := f.note(tt.text)
		if tt.noteNone && note != "" || !strings.Contains(note, tt.noteHas) {
			t.Errorf("note of %q = %q, want one with %q", tt.text, note, tt.noteHas)
		}
	}
}

func TestKeepForm(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, before, content, want string
	}{
		{"lf", "a\nb\n", "a\nB\n", "a\nB\n"},
		{"crlf", "a\r\nb\r\n", "a\nB\nc\n", "a\r\nB\r\nc\r\n"},
		{"cr", "a\rb\r", "a\nB\n", "a\rB\r"},
		{"bom kept", "\uFEFFa\nb\n", "a\nB\n", "\uFEFFa\nB\n"},
		{"bom as shown", "\uFEFFa\nb\n", "\uFEFFa\nB\n", "\uFEFFa\nB\n"},
		{"mixed: untouched lines keep their breaks", "a\r\nb\nc\r\nd\n", "a\nb\nC\nd\n", "a\r\nb\nC\r\nd\n"},
		{"mixed: unchanged", "a\r\nb\nc\r", "a\nb\nc\n", "a\r\nb\nc\r"},
		{"mixed: no final break", "a\r\nb\nc", "a\nb\nc", "a\r\nb\nc"},
		{"mixed: final break added", "a\r\nb\nc", "a\nb\nc\n", "a\r\nb\nc\r\n"},
	}
	for _, tt := range tests {
		if got := keepForm(tt.before, FormOf(tt.before), tt.content); got != tt.want {
			t.Errorf("%s: keepForm(%q, %q) = %q, want %q", tt.name, tt.before, tt.content, got, tt.want)
		}
	}
}

func TestEncodeLike(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                string
		disk, before, after string
		want                string
		refused             bool
	}{
		{name: "same", disk: "a\n", before: "a\n", after: "b\n", want: "b\n"},
		{name: "crlf shown as lf", disk: "a\r\nb\r\n", before: "a\nb\n", after: "a\nB\nc\n", want: "a\r\nB\r\nc\r\n"},
		{name: "bom dropped by the editor", disk: "\uFEFFa\n", before: "a\n", after: "b\n", want: "\uFEFFb\n"},
		{name: "bom and crlf", disk: "\uFEFFa\r\n", before: "a\n", after: "b\n", want: "\uFEFFb\r\n"},
		{name: "latin1 decoded", disk: "caf\xE9\n", before: "café\n", after: "cafés\n", want: "caf\xE9s\n"},
		{name: "latin1: new text outside latin1", disk: "caf\xE9\n", before: "café\n", after: "café 😀\n", refused: true},
		{name: "plain file, buffer with unsaved typing", disk: "a\n", before: "a typed\n", after: "b typed\n", want: "b typed\n"},
		{name: "crlf file, buffer with unsaved typing", disk: "a\r\n", before: "a typed\n", after: "b typed\n", refused: true},
		{name: "not utf8, buffer as U+FFFD", disk: "\xE2\x82 x\n", before: "\uFFFD x\n", after: "\uFFFD y\n", refused: true},
	}
	for _, tt := range tests {
		got, ok := EncodeLike([]byte(tt.disk), tt.before, tt.after)
		if ok == tt.refused || ok && string(got) != tt.want {
			t.Errorf("%s: EncodeLike = %q, %v; want %q, %v", tt.name, got, ok, tt.want, !tt.refused)
		}
	}
}

func TestSameDecoded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		disk, text string
		want       bool
	}{
		{"caf\xE9\n", "caf\uFFFD\n", true},
		{"\xE2\x82 x\n", "\uFFFD x\n", true},       // WHATWG: one U+FFFD
		{"\xE2\x82 x\n", "\uFFFD\uFFFD x\n", true}, // Go: one a byte
		{"caf\xE9\n", "caf\uFFFD typed\n", false},
		{"caf\xC3\xA9\n", "caf\uFFFD\n", false}, // UTF-8 on disk: the client's text is newer
	}
	for _, tt := range tests {
		if got := SameDecoded([]byte(tt.disk), tt.text); got != tt.want {
			t.Errorf("SameDecoded(%q, %q) = %v", tt.disk, tt.text, got)
		}
	}
}

// TestPositionsUTF16 checks the server's positions against UTF-16 code
// units counted apart (unicode/utf16) on lines with astral characters,
// combining marks and U+FFFD: the column of each rune start.
func TestPositionsUTF16(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		"😀😀 x TARGET 😀",
		"e\u0301e\u0301 TARGET",
		"\uFFFD\uFFFD TARGET \uFFFD",
		"👩\u200d👩\u200d👧 TARGET",
		"𝄞a𝄞b",
	} {
		text := "first\r\n" + line + "\nlast"
		units := 0
		for i, r := range line {
			want := Position{Line: 1, Character: uint32(units)}
			off := len("first\r\n") + i
			if got := PositionOf(text, off); got != want {
				t.Errorf("PositionOf(%q, byte %d) = %+v, want %+v", line, i, got, want)
			}
			if got, err := OffsetOf(text, want); err != nil || got != off {
				t.Errorf("OffsetOf(%q, %+v) = %d, %v; want %d", line, want, got, err, off)
			}
			units += len(utf16.Encode([]rune{r}))
		}
	}
}

// modelViewOf is a file's text as read shows it to a model: its lines
// without their breaks, joined with "\n".
func modelViewOf(text string) string {
	var b strings.Builder
	for _, l := range lspLines(text) {
		b.WriteString(text[l.start:l.end])
		if l.end != l.next {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// FuzzEditPreservesBytes: for any bytes (invalid UTF-8, CR, a BOM, NUL)
// and any edit a model can send (valid UTF-8), an edit that is not refused
// changes only the bytes of the occurrence it replaces (or inserts at one
// place), its TextEdits give the same text as applied on disk, and an
// insertion keeps the file's BOM first; writing back what read showed of
// a UTF-8 file changes nothing.
func FuzzEditPreservesBytes(f *testing.F) {
	f.Add([]byte("a\r\nb\r\nc\r\n"), uint16(3), uint16(4), "B\nB", false, uint8(1))
	f.Add([]byte("caf\xE9\nTARGET\n"), uint16(6), uint16(12), "X", false, uint8(0))
	f.Add([]byte("\xEF\xBB\xBFx\ry\r"), uint16(3), uint16(4), "new\n", true, uint8(1))
	f.Add([]byte("a\r\nb\nc\r"), uint16(0), uint16(2), "z\r\n", false, uint8(2))
	f.Add([]byte("\xE2\x82 😀 TARGET\x00"), uint16(9), uint16(15), "é", false, uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, i, j uint16, newText string, insert bool, line uint8) {
		text := string(data)
		p := Path{Rel: "f.txt"}
		newText = strings.ToValidUTF8(newText, "")
		var c Change
		var err error
		if insert {
			c, err = insertChange(p, text, int(line), newText)
		} else {
			lo, hi := min(int(i), len(text)), min(int(j), len(text))
			if lo > hi {
				lo, hi = hi, lo
			}
			old := strings.ToValidUTF8(text[lo:hi], "")
			if old == "" || old == newText {
				return
			}
			c, err = replaceChange(p, text, EditSpec{OldString: old, NewString: newText})
			if err == nil {
				// Only one occurrence's bytes (in the file's breaks) change.
				pre, suf := rawAffixes(text, c.After)
				if changed := len(text) - pre - suf; changed > max(len(old), len(FormOf(text).Breaks(old))) {
					t.Fatalf("edit of %q changed %d bytes of %q: %q", old, changed, text, c.After)
				}
			}
		}
		if err != nil {
			return // refused: nothing is written
		}
		if insert {
			pre, suf := rawAffixes(text, c.After)
			if pre+suf < len(text) {
				t.Fatalf("insertion changed bytes of %q: %q", text, c.After)
			}
		}
		if c.Before != text {
			t.Fatalf("Before %q is not the file's bytes %q", c.Before, text)
		}
		got, err := ApplyEdits(text, c.Edits)
		if err != nil || got != c.After {
			t.Fatalf("ApplyEdits(%q, %+v) = %q, %v; want After %q", text, c.Edits, got, err, c.After)
		}
		if insert && strings.HasPrefix(text, utf8BOM) && !strings.HasPrefix(c.After, utf8BOM) {
			t.Fatalf("BOM lost: %q → %q", text, c.After)
		}
		if utf8.ValidString(text) {
			if got := keepForm(text, FormOf(text), modelViewOf(text)); got != text {
				t.Fatalf("writing back what read showed of %q gives %q", text, got)
			}
		}
	})
}

// rawAffixes is the length of the common byte prefix and suffix of a and b
// (not overlapping), whatever they split.
func rawAffixes(a, b string) (pre, suf int) {
	n := min(len(a), len(b))
	for pre < n && a[pre] == b[pre] {
		pre++
	}
	for suf < n-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	return pre, suf
}
