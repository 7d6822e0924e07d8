package workspace

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// readLine is line n of p as Read shows it (without its number).
func readLine(t testing.TB, ws *Workspace, p Path, n int) string {
	t.Helper()
	r, err := ws.Read(p, n, 1)
	if err != nil {
		t.Fatalf("Read(%s, %d): %v", p.Rel, n, err)
	}
	_, line, ok := strings.Cut(strings.TrimSuffix(r.Content, "\n"), "\t")
	if !ok {
		t.Fatalf("Read(%s, %d) = %q", p.Rel, n, r.Content)
	}
	return line
}

// checkGrepAgreesWithRead greps p for pattern and checks every match
// against Read: the same line under the same number, the same context
// lines, and one match for each line Read shows that matches.
func checkGrepAgreesWithRead(t testing.TB, ws *Workspace, p Path, pattern string) []int {
	t.Helper()
	res, err := ws.Grep(context.Background(), GrepOptions{Pattern: pattern, Base: p, Context: 1, MaxResults: 1000})
	if err != nil {
		t.Fatalf("Grep: %v", err)
	}
	r, err := ws.Read(p, 0, 100000)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	re := regexp.MustCompile(pattern)
	var want, got []int
	for i := 1; i <= r.TotalLines; i++ {
		if re.MatchString(readLine(t, ws, p, i)) {
			want = append(want, i)
		}
	}
	for _, m := range res.Matches {
		got = append(got, m.Line)
		if line := readLine(t, ws, p, m.Line); line != m.Text {
			t.Errorf("grep line %d is %q; read shows %q there", m.Line, m.Text, line)
		}
		for k, b := range m.Before {
			if line := readLine(t, ws, p, m.Line-len(m.Before)+k); line != b {
				t.Errorf("grep's line before %d is %q; read shows %q", m.Line, b, line)
			}
		}
		for k, a := range m.After {
			if line := readLine(t, ws, p, m.Line+1+k); line != a {
				t.Errorf("grep's line after %d is %q; read shows %q", m.Line, a, line)
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("grep found lines %v; read shows matching lines %v", got, want)
	}
	return got
}

// TestGrepLinesAgreeWithRead: grep numbers a file's lines as read does —
// "\n", "\r\n" and a lone "\r" each end a line — so the line grep names is
// the line read shows under that number. Before, grep counted "\n" only: in
// a file with lone "\r" breaks (old Mac, or mixed) it named the wrong line
// and showed several lines as one.
func TestGrepLinesAgreeWithRead(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		want       []int
	}{
		{"LF", "a\nhit 2\nc\nhit 4\n", []int{2, 4}},
		{"CRLF", "a\r\nhit 2\r\nc\r\nhit 4\r\n", []int{2, 4}},
		{"CR", "a\rhit 2\rc\rhit 4\r", []int{2, 4}},
		{"CR without a last break", "a\rb\rhit 3", []int{3}},
		{"mixed", "a\r\nb\rhit 3\nd\r\rhit 6\r\nhit 7", []int{3, 6, 7}},
		{"CR after CRLF lines", "hit 1\r\nb\r\nc\rhit 4\r", []int{1, 4}},
		{"empty CR lines", "\r\r\rhit 4\r\r", []int{4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws := newTestWorkspace(t, map[string]string{"f.txt": tc.text})
			for _, pattern := range []string{"hit", `^hit \d$`} {
				if got := checkGrepAgreesWithRead(t, ws, mustResolve(t, ws, "f.txt"), pattern); !slices.Equal(got, tc.want) {
					t.Errorf("%q: grep found lines %v, want %v", pattern, got, tc.want)
				}
			}
		})
	}
}

// FuzzGrepLinesAgreeWithRead: whatever line breaks a file mixes, each line
// grep names is the line read shows under that number, with its context.
func FuzzGrepLinesAgreeWithRead(f *testing.F) {
	for _, s := range []string{"a\rhit\r\nhit\n", "\r\n\rhit", "hit\r", "x\n\r\rhit\r\n\n"} {
		f.Add(s)
	}
	root := f.TempDir()
	ws, err := New(root)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if IsBinary([]byte(text)) {
			return
		}
		if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := ws.Resolve("f.txt")
		if err != nil {
			t.Fatal(err)
		}
		checkGrepAgreesWithRead(t, ws, p, "hit")
	})
}
