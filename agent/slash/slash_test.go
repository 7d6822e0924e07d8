package slash

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text, name, args, literal string
		ok                        bool
	}{
		{text: "hello", literal: "hello"},
		{text: "/plans", name: "plans", ok: true},
		{text: "  /reject  too vague \n", name: "reject", args: "too vague", ok: true},
		{text: "/reject\ttwo\nlines", name: "reject", args: "two\nlines", ok: true},
		{text: "//plans is a path", literal: "/plans is a path"},
		{text: "  //x", literal: "/x"},
		{text: "/", name: "", ok: true},
		{text: "/ spaced", name: "", args: "spaced", ok: true},
		{text: "/etc/passwd why", name: "etc/passwd", args: "why", ok: true},
		{text: "/модель x", name: "модель", args: "x", ok: true},
		{text: "a /plans", literal: "a /plans"},
	}
	for _, tt := range tests {
		cmd, literal, ok := Parse(tt.text)
		if ok != tt.ok || cmd.Name != tt.name || cmd.Args != tt.args || (!ok && literal != tt.literal) {
			t.Errorf("Parse(%q) = %+v, %q, %v; want {%q %q}, %q, %v", tt.text, cmd, literal, ok, tt.name, tt.args, tt.literal, tt.ok)
		}
	}
}

// FuzzParse: every prompt is either a command whose name has no
// space and whose arguments are trimmed, or text sent as it is ("//…" with
// one slash less); an error quoting a name stays printable and short.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"/plans", "//x", "/reject a b", "/", "\u00a0/model x", "/\xff\xfe", "hello /x", "/" + strings.Repeat("a", 5000)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		cmd, literal, ok := Parse(text)
		trimmed := strings.TrimLeft(text, " \t\r\n\v\f\u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
		if !ok {
			if strings.HasPrefix(trimmed, "//") {
				if literal != trimmed[1:] {
					t.Fatalf("%q: literal %q, want %q", text, literal, trimmed[1:])
				}
			} else if literal != text {
				t.Fatalf("%q: literal %q changed an ordinary prompt", text, literal)
			}
			return
		}
		if !strings.HasPrefix(trimmed, "/") || strings.HasPrefix(trimmed, "//") {
			t.Fatalf("%q parsed as a command", text)
		}
		if strings.ContainsAny(cmd.Name, " \t\n\r") || cmd.Args != strings.TrimSpace(cmd.Args) {
			t.Fatalf("%q: name %q args %q", text, cmd.Name, cmd.Args)
		}
		if !strings.Contains(text, cmd.Name) || !strings.Contains(text, cmd.Args) {
			t.Fatalf("%q: name %q or args %q not from the text", text, cmd.Name, cmd.Args)
		}
		q := QuoteName(cmd.Name)
		if !utf8.ValidString(q) || utf8.RuneCountInString(q) > maxNameRunes+1 || strings.ContainsAny(q, "\n\r\x00") {
			t.Fatalf("QuoteName(%q) = %q", cmd.Name, q)
		}
	})
}
