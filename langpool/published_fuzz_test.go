package langpool

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzBoundDiagnostics: whatever a server publishes, what is kept holds at
// most maxFileDiagnostics diagnostics, each text at most maxDiagnosticText
// bytes (plus the cut mark), valid UTF-8 when the input was, and a prefix
// of what the server sent.
func FuzzBoundDiagnostics(f *testing.F) {
	f.Add("bad line", "fake", 3)
	f.Add(strings.Repeat("é", maxDiagnosticText), "x", maxFileDiagnostics+5)
	f.Add(strings.Repeat("a", maxDiagnosticText-1)+"日本", strings.Repeat("s", maxDiagnosticText+1), 1)
	f.Fuzz(func(t *testing.T, msg, source string, n int) {
		if n < 0 || n > 3*maxFileDiagnostics {
			return
		}
		ds := make([]wireDiagnostic, n)
		for i := range ds {
			ds[i] = wireDiagnostic{Message: msg, Source: source}
		}
		got := boundDiagnostics(ds)
		if len(got) > maxFileDiagnostics || len(got) != min(n, maxFileDiagnostics) {
			t.Fatalf("%d diagnostics kept of %d", len(got), n)
		}
		for _, d := range got {
			for _, pair := range [][2]string{{d.Message, msg}, {d.Source, source}} {
				kept, sent := pair[0], pair[1]
				if len(kept) > maxDiagnosticText+len("…") {
					t.Fatalf("%d bytes kept", len(kept))
				}
				if !strings.HasPrefix(sent, strings.TrimSuffix(kept, "…")) {
					t.Fatalf("%q is no prefix of what was sent", kept)
				}
				if utf8.ValidString(sent) && !utf8.ValidString(kept) {
					t.Fatalf("cut inside a character: %q", kept)
				}
			}
		}
	})
}
