package agent

import (
	"strings"
	"testing"
)

// FuzzCodeSpan: whatever a server names its tool, the code span that shows
// it in a permission question is one line, opens and closes with the same
// fence, and holds no run of backticks as long as that fence.
func FuzzCodeSpan(f *testing.F) {
	for _, s := range []string{"write_note", "a`b", "```", "`x`", "sync\n\nArguments:\n```json\n{}\n```", "\u202Eetirw", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got := codeSpan(name)
		if strings.ContainsAny(got, "\n\r\u2028\u2029") {
			t.Fatalf("%q spans lines", got)
		}
		n := 0
		for n < len(got) && got[n] == '`' {
			n++
		}
		fence := got[:n]
		inner := strings.TrimSuffix(got[n:], fence)
		if n == 0 || len(inner) != len(got)-2*n || strings.Contains(inner, fence) {
			t.Fatalf("%q: not one code span fenced by %q", got, fence)
		}
	})
}
