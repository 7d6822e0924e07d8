package workspace

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goSrcWorkspace opens $GOROOT/src as a workspace, or skips.
func goSrcWorkspace(b *testing.B) (*Workspace, Path) {
	b.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("go env GOROOT: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "src")
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		b.Skipf("no GOROOT/src at %s", dir)
	}
	ws, err := New(dir)
	if err != nil {
		b.Fatal(err)
	}
	base, err := ws.Resolve(".")
	if err != nil {
		b.Fatal(err)
	}
	return ws, base
}

func benchGrep(b *testing.B, pattern string, ignoreCase bool) {
	ws, base := goSrcWorkspace(b)
	var lines int
	for b.Loop() {
		res, err := ws.Grep(context.Background(), GrepOptions{Pattern: pattern, Base: base, CaseInsensitive: ignoreCase, MaxResults: 1 << 30})
		if err != nil {
			b.Fatal(err)
		}
		lines = len(res.Matches)
	}
	if lines == 0 {
		b.Fatalf("%q matched nothing in GOROOT/src", pattern)
	}
	b.ReportMetric(float64(lines), "lines")
}

// The patterns are those of bench/grep.sh, which compares with ripgrep.

// BenchmarkGrepLiteral searches GOROOT/src for a literal.
func BenchmarkGrepLiteral(b *testing.B) { benchGrep(b, `WaitGroup`, false) }

// BenchmarkGrepRegex searches GOROOT/src for a regular expression with a
// required literal.
func BenchmarkGrepRegex(b *testing.B) { benchGrep(b, `func \w+\(ctx context`, false) }

// BenchmarkGrepRegexManyMatches searches for an expression matching 23k lines.
func BenchmarkGrepRegexManyMatches(b *testing.B) { benchGrep(b, `err\s*!=\s*nil`, false) }

// BenchmarkGrepRegexWeakLiteral searches for an expression whose only
// literal is a common byte.
func BenchmarkGrepRegexWeakLiteral(b *testing.B) { benchGrep(b, `[A-Z]{6,}_[0-9]+`, false) }

// BenchmarkGrepCaseInsensitive searches for a literal ignoring case.
func BenchmarkGrepCaseInsensitive(b *testing.B) { benchGrep(b, `context.context`, true) }
