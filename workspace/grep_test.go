package workspace

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func grepWorkspace(t *testing.T) *Workspace {
	t.Helper()
	return newTestWorkspace(t, map[string]string{
		".gitignore":        "vendor/\n*.gen.go\n",
		"a.go":              "package a\n\nfunc Alpha() error {\n\treturn nil\n}\n",
		"a/b.go":            "package b\n// TODO: alpha\nvar x = 1\n",
		"b.ts":              "export const ALPHA = 1;\r\nconst beta = 2;\r\n",
		"docs/readme.md":    "# Alpha\nalpha beta\nALPHA\n",
		"vendor/dep.go":     "func Alpha() {}\n",
		"z.gen.go":          "func Alpha() {}\n",
		"bin/data.bin":      "Alpha\x00\x01",
		".git/objects/x":    "Alpha\n",
		".agentls/chats/c":  "Alpha\n",
		"many.txt":          strings.Repeat("hit\n", 50),
		"long/line.txt":     "x" + strings.Repeat("é", MaxLineLen+5) + "Omega\n",
		"ctx/context.txt":   "l1\nl2\nl3 match\nl4\nl5\nl6 match\nl7\n",
		"ctx/edges.txt":     "match first\nmiddle\nmatch last",
		"unicode/hello.txt": "héllo 🌍 wörld\nKELVIN \u212a\n",
	})
}

func grepOK(t *testing.T, ws *Workspace, opts GrepOptions) GrepResult {
	t.Helper()
	if opts.Base.Abs == "" {
		opts.Base = mustResolve(t, ws, ".")
	}
	res, err := ws.Grep(context.Background(), opts)
	if err != nil {
		t.Fatalf("Grep(%+v): %v", opts, err)
	}
	return res
}

func matchKeys(res GrepResult) []string {
	var out []string
	for _, m := range res.Matches {
		out = append(out, fmt.Sprintf("%s:%d:%s", m.Path, m.Line, m.Text))
	}
	return out
}

func TestGrep(t *testing.T) {
	ws := grepWorkspace(t)
	tests := []struct {
		name string
		opts GrepOptions
		want []string
	}{
		{"literal, sorted by path then line, ignored and binary files skipped",
			GrepOptions{Pattern: "Alpha"},
			[]string{"a.go:3:func Alpha() error {", "docs/readme.md:1:# Alpha"}},
		{"regex",
			GrepOptions{Pattern: `^func \w+\(\)`},
			[]string{"a.go:3:func Alpha() error {"}},
		{"case insensitive",
			GrepOptions{Pattern: "alpha", CaseInsensitive: true, Include: "*.{go,ts}"},
			[]string{"a.go:3:func Alpha() error {", "a/b.go:2:// TODO: alpha", "b.ts:1:export const ALPHA = 1;"}},
		{"include by name at any depth",
			GrepOptions{Pattern: "package", Include: "*.go"},
			[]string{"a.go:1:package a", "a/b.go:1:package b"}},
		{"include by path",
			GrepOptions{Pattern: "package", Include: "a/**/*.go"},
			[]string{"a/b.go:1:package b"}},
		{"CRLF: $ matches before \\r and the text has no \\r",
			GrepOptions{Pattern: `2;$`},
			[]string{"b.ts:2:const beta = 2;"}},
		{"alternation",
			GrepOptions{Pattern: `TODO|beta =`},
			[]string{"a/b.go:2:// TODO: alpha", "b.ts:2:const beta = 2;"}},
		{"unicode case folding: K matches the Kelvin sign",
			GrepOptions{Pattern: "kelvin k", CaseInsensitive: true},
			[]string{"unicode/hello.txt:2:KELVIN \u212a"}},
		{"non-ASCII literal",
			GrepOptions{Pattern: "🌍 w"},
			[]string{"unicode/hello.txt:1:héllo 🌍 wörld"}},
		{"search one file",
			GrepOptions{Pattern: "match", Base: Path{}},
			nil}, // filled below
	}
	for _, tt := range tests[:len(tests)-1] {
		t.Run(tt.name, func(t *testing.T) {
			res := grepOK(t, ws, tt.opts)
			if got := matchKeys(res); !slices.Equal(got, tt.want) {
				t.Errorf("matches:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if res.Truncated {
				t.Error("unexpectedly truncated")
			}
		})
	}

	one := grepOK(t, ws, GrepOptions{Pattern: "match", Base: mustResolve(t, ws, "ctx/edges.txt")})
	if got := matchKeys(one); !slices.Equal(got, []string{"ctx/edges.txt:1:match first", "ctx/edges.txt:3:match last"}) || one.FilesSearched != 1 {
		t.Errorf("single file: %v (searched %d)", got, one.FilesSearched)
	}
	sub := grepOK(t, ws, GrepOptions{Pattern: "match", Base: mustResolve(t, ws, "ctx")})
	if len(sub.Matches) != 4 || sub.FilesSearched != 2 {
		t.Errorf("folder ctx: %v, searched %d", matchKeys(sub), sub.FilesSearched)
	}
	if sub.Matches[0].Path != "ctx/context.txt" {
		t.Errorf("paths are workspace-relative: %q", sub.Matches[0].Path)
	}
}

func TestGrepContext(t *testing.T) {
	ws := grepWorkspace(t)
	res := grepOK(t, ws, GrepOptions{Pattern: "match", Base: mustResolve(t, ws, "ctx"), Context: 2})
	type ctxLines struct{ before, after []string }
	want := map[string]ctxLines{
		"ctx/context.txt:3": {[]string{"l1", "l2"}, []string{"l4", "l5"}},
		"ctx/context.txt:6": {[]string{"l4", "l5"}, []string{"l7"}},
		"ctx/edges.txt:1":   {nil, []string{"middle", "match last"}},
		"ctx/edges.txt:3":   {[]string{"match first", "middle"}, nil},
	}
	if len(res.Matches) != len(want) {
		t.Fatalf("matches: %v", matchKeys(res))
	}
	for _, m := range res.Matches {
		w := want[fmt.Sprintf("%s:%d", m.Path, m.Line)]
		if !slices.Equal(m.Before, w.before) || !slices.Equal(m.After, w.after) {
			t.Errorf("%s:%d before %q after %q, want %q %q", m.Path, m.Line, m.Before, m.After, w.before, w.after)
		}
	}
	noCtx := grepOK(t, ws, GrepOptions{Pattern: "match", Base: mustResolve(t, ws, "ctx")})
	for _, m := range noCtx.Matches {
		if m.Before != nil || m.After != nil {
			t.Errorf("context lines without Context: %+v", m)
		}
	}
}

func TestGrepMaxResults(t *testing.T) {
	ws := newTestWorkspace(t, func() map[string]string {
		files := map[string]string{}
		for i := range 60 {
			files[fmt.Sprintf("d%d/f%02d.txt", i%7, i)] = strings.Repeat("hit\nmiss\n", 1+i%4)
		}
		return files
	}())
	full := grepOK(t, ws, GrepOptions{Pattern: "hit", MaxResults: 1 << 20})
	if full.Truncated || len(full.Matches) != 150 || full.FilesSearched != 60 {
		t.Fatalf("full: %d matches, truncated %v, searched %d", len(full.Matches), full.Truncated, full.FilesSearched)
	}
	if !slices.IsSortedFunc(full.Matches, func(a, b GrepMatch) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return a.Line - b.Line
	}) {
		t.Fatal("matches are not sorted by path then line")
	}
	def := grepOK(t, ws, GrepOptions{Pattern: "hit"})
	if len(def.Matches) != DefaultGrepMaxResults || !def.Truncated {
		t.Errorf("default max: %d matches, truncated %v", len(def.Matches), def.Truncated)
	}
	for _, max := range []int{1, 7, 37, 149, 150} {
		for range 10 { // deterministic whatever the scheduling
			res := grepOK(t, ws, GrepOptions{Pattern: "hit", MaxResults: max})
			if !slices.Equal(matchKeys(res), matchKeys(full)[:max]) {
				t.Fatalf("max %d: not the first %d matches in path order", max, max)
			}
			if res.Truncated != (max < 150) {
				t.Fatalf("max %d: truncated = %v", max, res.Truncated)
			}
		}
	}
	// Exactly as many matches as the maximum is not truncated.
	res := grepOK(t, ws, GrepOptions{Pattern: "hit", MaxResults: 150})
	if res.Truncated || res.FilesSearched != 60 {
		t.Errorf("max = count: truncated %v searched %d", res.Truncated, res.FilesSearched)
	}
}

func TestGrepOverlayWins(t *testing.T) {
	ws := newTestWorkspace(t, map[string]string{"a.txt": "old needle\n", "b.txt": "other\n"})
	p := mustResolve(t, ws, "a.txt")
	ws.Overlay().Open(p.Abs, 1, "fresh\nnew needle\n")
	res := grepOK(t, ws, GrepOptions{Pattern: "needle"})
	if got := matchKeys(res); !slices.Equal(got, []string{"a.txt:2:new needle"}) {
		t.Errorf("overlay text must be searched: %v", got)
	}
	one := grepOK(t, ws, GrepOptions{Pattern: "needle", Base: p})
	if got := matchKeys(one); !slices.Equal(got, []string{"a.txt:2:new needle"}) {
		t.Errorf("single file, overlay: %v", got)
	}
}

func TestGrepLongLineCut(t *testing.T) {
	ws := grepWorkspace(t)
	res := grepOK(t, ws, GrepOptions{Pattern: "xé", Base: mustResolve(t, ws, "long")})
	if len(res.Matches) != 1 || !strings.Contains(res.Matches[0].Text, "line cut") || strings.Contains(res.Matches[0].Text, "Omega") {
		t.Errorf("long line: %+v", res.Matches)
	}
}

func TestGrepErrors(t *testing.T) {
	ws := grepWorkspace(t)
	root := mustResolve(t, ws, ".")
	tests := []struct {
		opts GrepOptions
		want string
	}{
		{GrepOptions{Pattern: "a(b", Base: root}, "invalid regular expression"},
		{GrepOptions{Pattern: "", Base: root}, "empty pattern"},
		{GrepOptions{Pattern: `a\nb`, Base: root}, "line break"},
		{GrepOptions{Pattern: "a", Base: root, MaxResults: -1}, "negative"},
		{GrepOptions{Pattern: "a", Base: root, Context: -1}, "negative"},
		{GrepOptions{Pattern: "a", Base: root, Include: "{"}, "include"},
		{GrepOptions{Pattern: "a", Base: mustResolve(t, ws, "missing")}, "does not exist"},
	}
	for _, tt := range tests {
		_, err := ws.Grep(context.Background(), tt.opts)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Grep(%+v) error = %v, want %q", tt.opts, err, tt.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ws.Grep(ctx, GrepOptions{Pattern: "a", Base: root}); err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Errorf("cancelled grep: %v", err)
	}
	if _, err := ws.Grep(ctx, GrepOptions{Pattern: "a", Base: mustResolve(t, ws, "a.go")}); err == nil {
		t.Error("cancelled single-file grep should fail")
	}
}

// TestLineMatcherAgainstRegexp compares the prefiltered scan with the plain
// definition (the expression run on every line, "\r" trimmed) on random
// texts, for patterns that exercise every prefilter path.
func TestLineMatcherAgainstRegexp(t *testing.T) {
	patterns := []struct {
		p    string
		fold bool
	}{
		{"foo", false}, {"foo", true}, {"Foo.Bar", false}, {`foo\.bar`, false},
		{`fo+ba?r`, false}, {`(foo|bar)baz`, false}, {`foo|bar|qux`, true},
		{`\bfoo\b`, false}, {`foo\b`, false}, {`foo\Bbar`, false}, {`x\b`, false},
		{`^foo`, false}, {`bar$`, false}, {`^$`, false}, {`o*`, false},
		{`[A-Z]{2,}_[0-9]+`, false}, {`sk`, true}, {`kelvin`, true}, {`ß`, true},
		{`foo.*bar`, false}, {`(?i)FOO\s+bar`, false}, {`é+`, false}, {`🌍|foo`, false},
		{`a{3}`, false}, {`(ab)+c`, false}, {`\d+\.\d+`, false}, {`foo\r`, false},
		{`_[0-9]+`, false}, {`foo(?i)bar`, false}, {`foo[é-ü]`, false}, {`foo(a|b)?c`, false},
		{`foo\s*bar`, false}, {`foo(?i:k)`, false}, {`foo(?i:s)`, false}, {`Foo(x*|🌍)b`, false},
		{`foo$`, false}, {`foo(?:$|b)`, false}, {`_(?i:S)`, true}, {"_\u212a", true}, {"_ſ", true},
		{"o\u212a", false}, {`_(?i:ß)`, false}, {"foo(?i:\u212a)", false}, {"_(?i:ſ)", false},
	}
	pieces := []string{"foo", "bar", "Foo", "BAR", "baz", "qux", "FOO", " ", "_", "AB", "12", ".", "x", "ü", "\t", "_1", "X", "k", "s",
		"\n", "\r\n", "\n", "é", "🌍", "\u212a", "kelvin", "SK", "ſ", "ß", "o", "b", "a", "c", "fo", "ob"}
	r := rand.New(rand.NewPCG(7, 7))
	for _, pt := range patterns {
		m, err := newLineMatcher(pt.p, pt.fold)
		if err != nil {
			t.Fatalf("%q: %v", pt.p, err)
		}
		expr := pt.p
		if pt.fold {
			expr = "(?i)" + expr
		}
		re := regexp.MustCompile(expr)
		for range 400 {
			var b strings.Builder
			for range r.IntN(40) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			text := []byte(b.String())
			var want, got []int
			for i, start := 0, 0; start < len(text); i++ {
				end := len(text)
				if j := strings.IndexByte(string(text[start:]), '\n'); j >= 0 {
					end = start + j
				}
				if re.Match(trimCR(text[start:end])) {
					want = append(want, start)
				}
				start = end + 1
			}
			m.scan(text, func(start, end int) bool { got = append(got, start); return true })
			if !slices.Equal(got, want) {
				t.Fatalf("pattern %q fold=%v on %q: lines %v, want %v", pt.p, pt.fold, text, got, want)
			}
		}
	}
}

func TestRequiredLits(t *testing.T) {
	tests := []struct {
		pattern string
		fold    bool
		want    string // lits joined by |, "-" for none
		literal bool
		suffix  bool
	}{
		{"hello", false, "hello", true, false},
		{"hello", true, "hello", false, false},
		{"Mask", true, "ma", false, false}, // s and k fold to non-ASCII runes
		{`context.Context`, false, "Context", false, false},
		{`func \w+\(ctx`, false, "(ctx", false, false},
		{`err\s*!=\s*nil`, false, "!=", false, true},
		{`foo|bar`, false, "foo|bar", false, false},
		{`foo|b*`, false, "-", false, false},
		{`x*`, false, "-", false, false},
		{`(abc)+`, false, "abc", false, false},
		{`[A-Z]{6,}_[0-9]+`, false, "_", false, true},
		{`__\b[a-z]`, false, "__", false, false}, // \b after the literal: no suffix filter
	}
	for _, tt := range tests {
		m, err := newLineMatcher(tt.pattern, tt.fold)
		if err != nil {
			t.Fatal(err)
		}
		var lits []string
		for _, l := range m.lits {
			lits = append(lits, l.s)
		}
		got := strings.Join(lits, "|")
		if got == "" {
			got = "-"
		}
		if got != tt.want || m.literalOnly != tt.literal || (m.suffix != nil) != tt.suffix {
			t.Errorf("%q fold=%v: lits %q literal %v suffix %v; want %q %v %v",
				tt.pattern, tt.fold, got, m.literalOnly, m.suffix != nil, tt.want, tt.literal, tt.suffix)
		}
	}
}

// TestGrepSearcherPanic checks that a panic while searching becomes an
// error instead of crashing or hanging, even when every searcher dies while
// the walker still has files to hand out.
func TestGrepSearcherPanic(t *testing.T) {
	files := map[string]string{}
	for i := range 600 {
		files[fmt.Sprintf("f%03d.txt", i)] = "text\n"
	}
	ws := newTestWorkspace(t, files)
	g := &grepRun{opts: GrepOptions{Base: mustResolve(t, ws, "."), MaxResults: 10}} // no matcher: scan panics
	_, err := g.tree(context.Background())
	if err == nil || !strings.Contains(err.Error(), "panic") {
		t.Fatalf("tree() error = %v, want a recovered panic", err)
	}
}
