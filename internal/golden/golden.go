// Package golden compares what a test produced with a file kept in the tree
// (a golden file, or a generated section of a document) and, when the tests
// run with -update, rewrites the file instead.
//
// Every package's golden tests use this package, so one flag updates them
// all: `go test ./config -update` for one package, ./scripts/update-golden
// for the whole tree (docs/contributing.md).
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files and generated doc sections instead of comparing with them")

// Update reports whether the tests run with -update.
func Update() bool { return *update }

// Check fails t unless the file at path holds got, byte for byte; with
// -update it writes got to path instead (creating or replacing the file).
func Check[T ~string | ~[]byte](t testing.TB, path string, got T) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatalf("golden: write %s: %v", path, err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden: %v (%s)", err, hint(t))
		return
	}
	if !bytes.Equal([]byte(got), want) {
		t.Errorf("golden: %s differs from what the test produced (%s)\n%s", path, hint(t), Diff(string(want), string(got)))
	}
}

// CheckSection fails t unless the document at path holds generated between
// the markers start and end (start, a blank line, generated, a newline, end);
// with -update it rewrites that section and leaves the rest of the document
// as it is. The markers must already be in the document.
func CheckSection(t testing.TB, path, start, end, generated string) {
	t.Helper()
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden: read %s: %v", path, err)
		return
	}
	text := string(doc)
	i := strings.Index(text, start)
	j := -1
	if i >= 0 {
		if k := strings.Index(text[i:], end); k >= 0 {
			j = i + k
		}
	}
	if i < 0 || j < 0 {
		t.Fatalf("golden: %s: markers %q … %q not found", path, start, end)
		return
	}
	want := start + "\n\n" + generated + "\n" + end
	have := text[i : j+len(end)]
	if have == want {
		return
	}
	if !*update {
		t.Errorf("golden: %s: the section %q differs from what the test generated (%s)\n%s", path, start, hint(t), Diff(have, want))
		return
	}
	if err := os.WriteFile(path, []byte(text[:i]+want+text[j+len(end):]), 0o644); err != nil {
		t.Fatalf("golden: write %s: %v", path, err)
	}
}

// hint says how to accept the new output.
func hint(t testing.TB) string {
	name, _, _ := strings.Cut(t.Name(), "/")
	return fmt.Sprintf("if the change is meant, run go test -run '^%s$' -update in this package", name)
}

// Diff is a short line diff of want and got: the lines from the first that
// differs to the last that differs, "-" for want and "+" for got, at most 40
// of each.
func Diff(want, got string) string {
	w, g := strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n")
	lo := 0
	for lo < len(w) && lo < len(g) && w[lo] == g[lo] {
		lo++
	}
	hw, hg := len(w), len(g)
	for hw > lo && hg > lo && w[hw-1] == g[hg-1] {
		hw--
		hg--
	}
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at line %d:\n", lo+1)
	lines := func(sign string, ls []string) {
		for n, l := range ls {
			if n == 40 {
				fmt.Fprintf(&b, "%s … %d more lines\n", sign, len(ls)-n)
				return
			}
			b.WriteString(sign + " " + strings.TrimSuffix(l, "\n") + "\n")
		}
	}
	lines("-", w[lo:hw])
	lines("+", g[lo:hg])
	return strings.TrimSuffix(b.String(), "\n")
}
