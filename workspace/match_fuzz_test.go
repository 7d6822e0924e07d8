package workspace

import (
	"strings"
	"testing"
)

// FuzzGlobPruningIsSound compiles arbitrary glob patterns (the model's,
// and a repository's .gitignore lines use the same matcher) and holds:
// brace expansion stays within maxBraceAlternatives; and the walk's
// pruning never hides a match: when a path matches, mayMatchUnder is true
// for each folder above it. A .gitignore text parses without a panic and
// its rules answer for the same path.
func FuzzGlobPruningIsSound(f *testing.F) {
	for _, s := range [][2]string{
		{"**/*.go", "a/b/c.go"}, {"src/{a,b}/*.ts", "src/b/x.ts"}, {"a/**/b/**/c", "a/x/b/y/z/c"},
		{"[!.]*/x", "y/x"}, {`\{a\}/b`, "{a}/b"}, {"{a,{b,c}}/d/", "c/d"}, {"*", "top"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, rel string) {
		_ = parseIgnore("", pattern+"\n!"+pattern+"\n/"+pattern).rulesOrNil()
		g, err := compileGlob(pattern)
		if err != nil {
			return
		}
		if len(g.alts) > maxBraceAlternatives {
			t.Fatalf("%q expanded to %d alternatives", pattern, len(g.alts))
		}
		rel = strings.Trim(rel, "/")
		if rel == "" || strings.Contains(rel, "//") || len(strings.Split(rel, "/")) > 12 {
			return
		}
		if !g.match(rel) {
			return
		}
		parts := strings.Split(rel, "/")
		for i := 1; i < len(parts); i++ {
			dir := strings.Join(parts[:i], "/")
			if !g.mayMatchUnder(dir) {
				t.Fatalf("%q matches %q, but the walk prunes %q", pattern, rel, dir)
			}
		}
	})
}

func (f *ignoreFile) rulesOrNil() []ignoreRule {
	if f == nil {
		return nil
	}
	return f.rules
}

// FuzzMatchSegmentsIsTheSearchOfEverySplit holds matchSegments to the
// definition of "**" it implements in linear time: a "**" segment
// matches zero or more segments, any other segment exactly one. The
// reference tries every split of the path for each "**" (exponential, so
// the inputs are kept short).
func FuzzMatchSegmentsIsTheSearchOfEverySplit(f *testing.F) {
	for _, s := range [][2]string{
		{"**/a/**/a/c", "a/a/a/a/c"}, {"**/a/**/a/c", "a/a/a/a/b"}, {"a/**", "a"}, {"**", "x/y"},
		{"**/**/b", "b"}, {"x/*/**/y*", "x/1/2/3/yz"}, {"*/**/*", "a"}, {"a/**/b/**/c", "a/x/b/y/z/c"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, rel string) {
		segs, err := splitSegments(pattern)
		parts := strings.Split(rel, "/")
		if err != nil || len(segs) > 10 || len(parts) > 10 {
			return
		}
		if got, want := matchSegments(segs, parts), matchEverySplit(segs, parts); got != want {
			t.Fatalf("matchSegments(%q, %q) = %v, the search of every split says %v", segs, parts, got, want)
		}
	})
}

// matchEverySplit is the definition of matchSegments, searched naively.
func matchEverySplit(pat, parts []string) bool {
	if len(pat) == 0 {
		return len(parts) == 0
	}
	if pat[0] == "**" {
		for i := range len(parts) + 1 {
			if matchEverySplit(pat[1:], parts[i:]) {
				return true
			}
		}
		return false
	}
	return len(parts) > 0 && matchSegment(pat[0], parts[0]) && matchEverySplit(pat[1:], parts[1:])
}
