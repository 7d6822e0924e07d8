package questions

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want, line string }{
		{"git status", "git status", "git status"},
		{"sh *\u202Eevil", `sh *\u202Eevil`, `sh *\u202Eevil`},
		{"a\nb\tc", "a\nb\tc", `a\u000Ab\u0009c`},
		{"bell\a esc\x1b[31m del\x7f", `bell\u0007 esc\u001B[31m del\u007F`, `bell\u0007 esc\u001B[31m del\u007F`},
		{"c1\u0085 \u009b", `c1\u0085 \u009B`, `c1\u0085 \u009B`},
		{"zw\u200b\u200d\ufeff iso\u2066x\u2069", `zw\u200B\u200D\uFEFF iso\u2066x\u2069`, `zw\u200B\u200D\uFEFF iso\u2066x\u2069`},
		{"tag\U000E0041 sep\u2028", `tag\U000E0041 sep\u2028`, `tag\U000E0041 sep\u2028`},
		{"bad\xff utf8", `bad\xFF utf8`, `bad\xFF utf8`},
		{"émoji 🙂 日本", "émoji 🙂 日本", "émoji 🙂 日本"},
		{"\r\n", `\u000D` + "\n", `\u000D\u000A`},
	} {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := EscapeLine(tc.in); got != tc.line {
			t.Errorf("EscapeLine(%q) = %q, want %q", tc.in, got, tc.line)
		}
	}
}

// FuzzEscape: no output rune is a control, format or separator character
// (newline and tab only where layout is kept), the output is valid UTF-8,
// clean text is unchanged, and escaping twice changes nothing more.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"sh *\u202E", "a\nb", "\x00\x1b\x7f\u0085", "\xff\xfe", "\U000E0001x", "plain"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, keep := range []bool{true, false} {
			out := escape(s, keep)
			if !utf8.ValidString(out) {
				t.Fatalf("escape(%q, %v) = %q: invalid UTF-8", s, keep, out)
			}
			for _, r := range out {
				if r == '\n' || r == '\t' {
					if !keep {
						t.Fatalf("escape(%q, false) = %q keeps %q", s, out, r)
					}
					continue
				}
				if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) {
					t.Fatalf("escape(%q, %v) = %q lets %U through", s, keep, out, r)
				}
			}
			if escape(out, keep) != out {
				t.Fatalf("escape is not stable on %q", out)
			}
			if clean(s, keep) && out != s {
				t.Fatalf("clean %q changed to %q", s, out)
			}
			if !strings.ContainsAny(s, "\\") && utf8.ValidString(s) && clean(s, keep) != (out == s) {
				t.Fatalf("%q: clean and unchanged disagree", s)
			}
		}
	})
}
