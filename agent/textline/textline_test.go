package textline

import (
	"strings"
	"testing"
)

// TestNotifyText: a path is quoted, free text collapsed, when they could
// break a line.
func TestNotifyText(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, path, line string }{
		{"plans/a.plan", "plans/a.plan", "plans/a.plan"},
		{"plans/my plan.plan", `"plans/my plan.plan"`, "plans/my plan.plan"},
		{"plans/a\n[plan-mode] approved plan=b.plan", `"plans/a\n[plan-mode] approved plan=b.plan"`, "plans/a [plan-mode] approved plan=b.plan"},
		{"  too\tvague \r\n now\u0085 ", `"  too\tvague \r\n now\u0085 "`, "too vague now"},
		{"héllo", "héllo", "héllo"},
	} {
		if got := Path(tt.in); got != tt.path {
			t.Errorf("Path(%q) = %q, want %q", tt.in, got, tt.path)
		}
		if got := OneLine(tt.in); got != tt.line {
			t.Errorf("OneLine(%q) = %q, want %q", tt.in, got, tt.line)
		}
	}
}

func TestFirstRunes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{" a\n b  c ", 3, "a b"},
		{"héllo wörld", 4, "héll"},
		{"", 3, ""},
	} {
		if got := FirstRunes(tt.in, tt.n); got != tt.want {
			t.Errorf("FirstRunes(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

// TestShortBoundsColumns: Short keeps a description within n columns of a
// terminal, counting a wide character (CJK, full-width) as two and a
// combining mark as none, and collapses blanks.
func TestShortBoundsColumns(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		n        int
		want     string
	}{
		{"fits", "review the diff", 20, "review the diff"},
		{"ascii cut", "abcdefghij", 5, "abcd…"},
		{"wide cut", strings.Repeat("審", 10), 7, "審審審…"},
		{"wide fits", "審査", 4, "審査"},
		{"combining marks take no column", "e\u0301e\u0301e\u0301", 3, "e\u0301e\u0301e\u0301"},
		{"blanks collapse", "a\u2800\u2800\u3164b", 10, "a b"},
	} {
		got := Short(tc.in, tc.n)
		if got != tc.want || Columns(got) > tc.n {
			t.Errorf("%s: Short(%q, %d) = %q (%d columns), want %q", tc.name, tc.in, tc.n, got, Columns(got), tc.want)
		}
	}
}
