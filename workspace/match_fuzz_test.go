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
		if strings.Count(pattern, "**") > 3 {
			return // TestAHostileGitignoreDoesNotHangTheWalk
		}
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
