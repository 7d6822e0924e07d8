package allowrule

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

// TestSimpleCommands: a list of simple commands is read command by
// command; anything else the shell could do (write a file, substitute, set
// a variable, run in the background or a subshell) is refused.
func TestSimpleCommands(t *testing.T) {
	for _, c := range []struct {
		line string
		want [][]string // nil: refused
	}{
		{"git status", [][]string{{"git", "status"}}},
		{"git a && git b || git c; git d | git e\ngit f", [][]string{{"git", "a"}, {"git", "b"}, {"git", "c"}, {"git", "d"}, {"git", "e"}, {"git", "f"}}},
		{"git 'a b'", [][]string{{"git", "a b"}}},
		{"git a > f", nil},
		{"git a; git b > f", nil},
		{"(git a) && git b", nil},
		{"git a & git b", nil},
		{"X=1 git a", nil},
		{"git $(x)", nil},
		{"git `x`", nil},
		{"! git a && git b", nil},
		{"git a |& git b", nil},
		{"{ git a; }", nil},
		{"git a # c", nil},
		{"", nil},
		{"git a\x00", nil},
	} {
		cs, err := SimpleCommands(c.line)
		var got [][]string
		for _, cmd := range cs {
			got = append(got, cmd.Words())
		}
		if (err != nil) != (c.want == nil) || !slices.EqualFunc(got, c.want, slices.Equal) {
			t.Errorf("SimpleCommands(%q) = %q, %v; want %q", c.line, got, err, c.want)
		}
	}
}

// FuzzSimpleCommands: a line Parse reads as one simple command is read by
// SimpleCommands as that one command; SimpleCommands never reads a line
// with a redirection, substitution or background job.
func FuzzSimpleCommands(f *testing.F) {
	for _, s := range []string{"git status", "git a && git b", "git a > f", "x=1 y", "a | b; c", "a `b`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		cs, err := SimpleCommands(line)
		if one, perr := Parse(line); perr == nil {
			if err != nil || len(cs) != 1 || !slices.Equal(cs[0].Words(), one.Words()) {
				t.Fatalf("Parse reads %q as %q, SimpleCommands as %v, %v", line, one.Words(), cs, err)
			}
		}
		if err == nil {
			for _, c := range cs {
				q := quoteAll(c.Words())
				if strings.ContainsFunc(q, unicode.IsControl) {
					continue // a quoted line break in a word: Parse takes no line with one
				}
				if _, perr := Parse(q); perr != nil {
					t.Fatalf("%q: a command %q that is not one simple command", line, c.Words())
				}
			}
		}
	})
}

// quoteAll is words as one line, each single-quoted.
func quoteAll(words []string) string {
	out := ""
	for i, w := range words {
		if i > 0 {
			out += " "
		}
		q := "'"
		for _, r := range w {
			if r == '\'' {
				q += `'\''`
			} else {
				q += string(r)
			}
		}
		out += q + "'"
	}
	return out
}
