package textline

import "testing"

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
