package agent

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTitleFromPrompt(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 30)
	cases := []struct{ in, want string }{
		{"Fix the login bug\nand more", "Fix the login bug"},
		{"\n\n   \n  hello   world  \n", "hello world"},
		{"tab\tand\x1b[31mescape", "tab and [31mescape"},
		{"bidi \u202eevil\u202c and zero\u200bwidth", "bidi evil and zerowidth"},
		{"", ""},
		{"  \n\t\n", ""},
		{long, strings.TrimRight(long[:59], " ") + "…"},
		{strings.Repeat("é", 70), strings.Repeat("é", 59) + "…"},
	}
	for _, c := range cases {
		if got := TitleFromPrompt(c.in); got != c.want {
			t.Errorf("TitleFromPrompt(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzTitleFromPrompt(f *testing.F) {
	f.Add("Fix the bug\nmore")
	f.Add("\u202e\x00\xff")
	f.Fuzz(func(t *testing.T, in string) {
		got := TitleFromPrompt(in)
		if utf8.RuneCountInString(got) > maxTitleRunes || !utf8.ValidString(got) || strings.ContainsAny(got, "\n\r\t\x00\u202e\u200b") {
			t.Fatalf("TitleFromPrompt(%q) = %q", in, got)
		}
		if got != strings.TrimSpace(got) {
			t.Fatalf("untrimmed %q", got)
		}
	})
}

// FuzzTitleOf: a title given by agent/setTitle is one line of at most 60
// characters without control or formatting characters, and any title with
// a visible character keeps one.
func FuzzTitleOf(f *testing.F) {
	f.Add("Login\x1b[31m fix\r\nnow")
	f.Add(" \x07\u200b ")
	f.Fuzz(func(t *testing.T, in string) {
		got := titleOf(in)
		if utf8.RuneCountInString(got) > maxTitleRunes || !utf8.ValidString(got) || strings.ContainsAny(got, "\n\r\t\x00\u202e\u200b") {
			t.Fatalf("titleOf(%q) = %q", in, got)
		}
		if strings.Contains(in, "a") && !strings.Contains(got, "a") && utf8.RuneCountInString(in) < maxTitleRunes {
			t.Fatalf("titleOf(%q) = %q lost the visible text", in, got)
		}
	})
}
