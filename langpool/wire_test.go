package langpool

import (
	"encoding/json"
	"path/filepath"
	"runtime"
	"testing"
)

func TestWireDecoders(t *testing.T) {
	locs, err := locations(json.RawMessage(`[{"targetUri":"file:///w/a%20b.go","targetRange":{},"targetSelectionRange":{"start":{"line":3,"character":5},"end":{"line":3,"character":9}}},{"uri":"https://x/y","range":{}}]`))
	if err != nil || len(locs) != 1 || locs[0].Path != "/w/a b.go" || locs[0].Range.Start.Line != 3 {
		t.Fatalf("locations = %+v, %v; want the link's file path only (not the https one)", locs, err)
	}
	if got := hoverText(json.RawMessage(`{"contents":{"kind":"markdown","value":"func F()"}}`)); got != "func F()" {
		t.Fatalf("hover = %q", got)
	}
	if _, err := fileEdits(json.RawMessage(`{"documentChanges":[{"kind":"create","uri":"file:///w/x.go"}]}`)); err == nil {
		t.Fatal("a rename that creates a file was taken")
	}
	syms, err := symbols(json.RawMessage(`[{"name":"T","kind":23,"range":{},"selectionRange":{"start":{"line":1}},"children":[{"name":"M","kind":6,"range":{},"selectionRange":{}}]}]`), "/w/a.go")
	if err != nil || len(syms) != 2 || syms[1].Container != "T" || syms[0].Kind != "struct" {
		t.Fatalf("symbols = %+v, %v", syms, err)
	}
}

// FuzzWireDecoders: whatever a language server answers, decoding never
// panics and every path it yields is absolute (a file: URI's).
func FuzzWireDecoders(f *testing.F) {
	for _, s := range []string{`null`, `{"uri":"file:///a","range":{}}`, `[{"targetUri":"file:///b"}]`, `{"changes":{"file:///c":[{"range":{},"newText":"x"}]}}`, `[{"name":"x","location":{"uri":"file:///d"}}]`, `{"contents":["a",{"value":"b"}]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw := json.RawMessage(s)
		check := func(p string) {
			if p != "" && !filepath.IsAbs(p) {
				t.Fatalf("relative path %q from %s", p, s)
			}
		}
		if locs, err := locations(raw); err == nil {
			for _, l := range locs {
				check(l.Path)
			}
		}
		if edits, err := fileEdits(raw); err == nil {
			for p := range edits {
				check(p)
			}
		}
		if syms, err := symbols(raw, "/w/a.go"); err == nil {
			for _, s := range syms {
				check(s.Location.Path)
			}
		}
		_ = hoverText(raw)
	})
}

// TestURIPathIsLocalAndAbsolute: a file URI names a local absolute path or
// nothing: `file:x` (opaque, no path: it read as the path "", which a
// rename's edits took) and another host's file are refused.
func TestURIPathIsLocalAndAbsolute(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX paths")
	}
	for _, tc := range []struct {
		uri, want string
		ok        bool
	}{
		{"file:///w/a.go", "/w/a.go", true},
		{"file://localhost/w/a.go", "/w/a.go", true},
		{"file:///w/%2Bpage.ts", "/w/+page.ts", true},
		{"file:x", "", false},
		{"file:w/a.go", "", false},
		{"file://evil.example/w/a.go", "", false},
		{"file://", "", false},
		{"untitled:Untitled-1", "", false},
	} {
		got, err := uriPath(tc.uri)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("uriPath(%q) = %q, %v; want %q (ok %v)", tc.uri, got, err, tc.want, tc.ok)
		}
	}
}
