package udiff

import (
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	tests := []struct {
		name, before, after, want string
		added, removed            int
	}{
		{"one line changed", "a\nb\nc\n", "a\nB\nc\n", "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n", 1, 1},
		{"new file", "", "x\ny\n", "--- /dev/null\n+++ b/f\n@@ -1,0 +1,2 @@\n+x\n+y\n", 2, 0},
		{"deleted file", "x\n", "", "--- a/f\n+++ /dev/null\n@@ -1,1 +1,0 @@\n-x\n", 0, 1},
		{"same", "a\n", "a\n", "--- a/f\n+++ b/f\n", 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Unified("f", tc.before, tc.after); got != tc.want {
				t.Fatalf("Unified =\n%s\nwant\n%s", got, tc.want)
			}
			if a, r := Stat(tc.before, tc.after); a != tc.added || r != tc.removed {
				t.Fatalf("Stat = +%d -%d, want +%d -%d", a, r, tc.added, tc.removed)
			}
		})
	}
}

// TestLargeMiddleIsBounded: two different files of 5000 lines each are
// diffed without the quadratic table (removed and added whole).
func TestLargeMiddleIsBounded(t *testing.T) {
	var a, b strings.Builder
	for i := 0; i < 5000; i++ {
		a.WriteString("a line\n")
		b.WriteString("b line\n")
	}
	if added, removed := Stat("head\n"+a.String()+"tail\n", "head\n"+b.String()+"tail\n"); added != 5000 || removed != 5000 {
		t.Fatalf("Stat = +%d -%d", added, removed)
	}
}

// FuzzStat: the line counts add up — the lines kept plus removed are the
// lines before, kept plus added the lines after.
func FuzzStat(f *testing.F) {
	f.Add("a\nb\n", "a\nc\n")
	f.Fuzz(func(t *testing.T, before, after string) {
		ops := diffLines(splitLines(before), splitLines(after))
		var keep, add, rm int
		for _, op := range ops {
			switch op.kind {
			case ' ':
				keep++
			case '+':
				add++
			case '-':
				rm++
			}
		}
		if keep+rm != len(splitLines(before)) || keep+add != len(splitLines(after)) {
			t.Fatalf("ops do not add up: keep %d add %d rm %d for %q → %q", keep, add, rm, before, after)
		}
	})
}
