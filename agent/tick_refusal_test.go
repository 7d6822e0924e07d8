package agent

import (
	"reflect"
	"testing"
)

func TestNewlyTicked(t *testing.T) {
	const head = "---\ntitle: T\nstatus: approved\n---\n# Goal\nx\n\n## Steps\n"
	tests := []struct {
		name          string
		before, after string
		want          []string
	}{
		{"one ticked", "- [ ] one\n- [ ] two\n", "- [x] one\n- [ ] two\n", []string{"one"}},
		{"nothing ticked", "- [ ] one\n", "- [ ] one\n", nil},
		{"an untick", "- [x] one\n", "- [ ] one\n", nil},
		{"one unticked, another ticked", "- [x] one\n- [ ] two\n", "- [ ] one\n- [x] two\n", []string{"two"}},
		{"two with the same text, one more ticked", "- [x] same\n- [ ] same\n", "- [x] same\n- [x] same\n", []string{"same"}},
		{"a new ticked step", "- [ ] one\n", "- [ ] one\n- [X] added\n", []string{"added"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := newlyTicked(head+tc.before, head+tc.after); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("newlyTicked = %q, want %q", got, tc.want)
			}
		})
	}
}

// FuzzNewlyTicked: a change that checks more steps than it had always
// names at least that many (the tick gate never misses a tick).
func FuzzNewlyTicked(f *testing.F) {
	f.Add("## Steps\n- [ ] a\n- [x] b\n", "## Steps\n- [x] a\n- [x] b\n")
	f.Add("## Steps\n- [x] a\n", "## Steps\n- [ ] a\n- [x] a\n")
	f.Fuzz(func(t *testing.T, before, after string) {
		got := newlyTicked(before, after)
		if d := checkedSteps(after) - checkedSteps(before); len(got) < d {
			t.Fatalf("newlyTicked(%q, %q) = %q, fewer than the %d more checked steps", before, after, got, d)
		}
	})
}
