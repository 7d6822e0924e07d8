package tools

import (
	"strings"
	"testing"
)

func TestPlainText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in, want string }{
		{"plain text is kept as it is", "ok\tpkg\r\n中文\n", "ok\tpkg\r\n中文\n"},
		{"colours (SGR)", "\x1b[32mPASS\x1b[0m \x1b[1;31mFAIL\x1b[m\n", "PASS FAIL\n"},
		{"cursor moves and erases (a progress bar)", "\x1b[2K\x1b[1G 50%\x1b[?25l\x1b[?25h\n", " 50%\n"},
		{"a title ended by BEL", "\x1b]0;npm install\x07done\n", "done\n"},
		{"a hyperlink ended by ST", "\x1b]8;;https://example.com\x1b\\docs\x1b]8;;\x1b\\\n", "docs\n"},
		{"a DCS string", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"character set selection", "\x1b(Bx\x1b)0y\x1b=z", "xyz"},
		{"a sequence cut off by the size limit", "ok\n\x1b[38;5;", "ok\n"},
		{"an OSC cut off by the size limit", "ok\n\x1b]8;;https://exa", "ok\n"},
		{"a lone escape at the end", "ok\x1b", "ok"},
		{"an escape that begins no known sequence", "a\x1b\x01b", "a\x01b"},
		{"an escape inside a sequence cannot rebuild one", "\x1b\x1b[31m[0mred", "[0mred"},
		{"brackets without an escape are text", "[31m array[0] ]0; ok", "[31m array[0] ]0; ok"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := plainText(tc.in); got != tc.want {
				t.Errorf("plainText(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// FuzzPlainText: no escape character survives, text without one is
// unchanged, and no byte but those of escape sequences is ever dropped from
// text whose sequences are all complete CSI colour codes.
func FuzzPlainText(f *testing.F) {
	for _, s := range []string{"", "ok", "\x1b[31mred\x1b[0m", "\x1b]0;t\x07x", "\x1b\x1b[[m", "\x1bP\x1b\\", "a\x1b"} {
		f.Add(s, "go vet ./...")
	}
	f.Fuzz(func(t *testing.T, s, text string) {
		got := plainText(s)
		if strings.Contains(got, "\x1b") {
			t.Fatalf("plainText(%q) = %q keeps an escape", s, got)
		}
		if !strings.Contains(s, "\x1b") && got != s {
			t.Fatalf("plainText(%q) = %q changed text without an escape", s, got)
		}
		if strings.Contains(text, "\x1b") {
			return
		}
		coloured := "\x1b[1;32m" + text + "\x1b[0m\x1b[K"
		if got := plainText(coloured); got != text {
			t.Fatalf("plainText(%q) = %q, want the text %q", coloured, got, text)
		}
	})
}
