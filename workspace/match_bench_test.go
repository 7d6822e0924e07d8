package workspace

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkGlobMatchCommon matches the patterns a .gitignore and the glob
// tool usually hold against ordinary paths.
func BenchmarkGlobMatchCommon(b *testing.B) {
	cases := [][2]string{
		{"**/*.go", "workspace/sub/dir/match.go"},
		{"src/**/test/*.ts", "src/a/b/c/test/x.ts"},
		{"a/**/b/**/c", "a/x/b/y/z/d"},
		{"build/**", "build/out/x/y/z.o"},
		{"docs/*.md", "docs/guard.md"},
		{"**/node_modules/**", "editors/vscode/src/test/unit/x.ts"},
	}
	for _, c := range cases {
		g, err := compileGlob(c[0])
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c[0], func(b *testing.B) {
			for b.Loop() {
				g.match(c[1])
			}
		})
	}
}

// BenchmarkGlobMatchHostile matches "**/a/**/a/…/c" (k "**" segments)
// against a path 40 folders deep that it does not match: the cost must
// grow with k × depth, not with the ways of spreading the path over the
// "**"s.
func BenchmarkGlobMatchHostile(b *testing.B) {
	rel := strings.Repeat("a/", 40) + "b.txt"
	for _, k := range []int{2, 4, 6, 10, 20} {
		g, err := compileGlob(strings.Repeat("**/a/", k) + "c")
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			for b.Loop() {
				g.match(rel)
			}
		})
	}
}
