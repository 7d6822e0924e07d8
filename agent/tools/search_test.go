package tools

import (
	"reflect"
	"strings"
	"testing"
)

var searchFiles = map[string]string{
	"main.go":          "package main\n\nfunc main() {\n\thello()\n}\n",
	"lib/hello.go":     "package main\n\nfunc hello() {\n\tprintln(\"Hello\")\n}\n",
	"lib/deep/x.go":    "package deep\n// HELLO there\n",
	"lib/readme.md":    "hello docs\n",
	"build/out.go":     "package build // hello\n",
	".gitignore":       "build/\n",
	"plans/calm.plan":  "# Goal\n",
	"empty/.gitkeep":   "",
	"lib/deep/big.txt": "x\n",
}

// size is the length of one of searchFiles.
func size(rel string) int64 { return int64(len(searchFiles[rel])) }

func TestLs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		args      string
		want      []LsEntry
		wantError []string
	}{
		{name: "root", args: `{}`, want: []LsEntry{
			{Path: ".gitignore", Size: size(".gitignore")}, {Path: "empty", IsDir: true}, {Path: "lib", IsDir: true},
			{Path: "main.go", Size: size("main.go")}, {Path: "plans", IsDir: true},
		}},
		{name: "depth 2", args: `{"path":"lib","depth":2}`, want: []LsEntry{
			{Path: "lib/deep", IsDir: true}, {Path: "lib/deep/big.txt", Size: size("lib/deep/big.txt")}, {Path: "lib/deep/x.go", Size: size("lib/deep/x.go")},
			{Path: "lib/hello.go", Size: size("lib/hello.go")}, {Path: "lib/readme.md", Size: size("lib/readme.md")},
		}},
		{name: "missing", args: `{"path":"nope"}`, wantError: []string{"nope does not exist"}},
		{name: "file", args: `{"path":"main.go"}`, wantError: []string{"not a folder"}},
		{name: "outside", args: `{"path":".."}`, wantError: []string{"outside the workspace"}},
		{name: "negative depth", args: `{"depth":-1}`, wantError: []string{"depth must not be negative"}},
		{name: "bad args", args: `[1]`, wantError: []string{"invalid arguments"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newFake(t, searchFiles)
			r := call(t, lsTool, env, tt.args)
			if tt.wantError != nil {
				wantFail(t, r, tt.wantError...)
				return
			}
			var got LsOutput
			value(t, r, &got)
			if !reflect.DeepEqual(got.Entries, tt.want) || got.Count != len(tt.want) || got.Truncated {
				t.Errorf("entries = %+v (count %d)\nwant      %+v", got.Entries, got.Count, tt.want)
			}
		})
	}
}

func TestGlob(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		args      string
		want      []string
		wantError []string
	}{
		{name: "any depth", args: `{"pattern":"**/*.go"}`, want: []string{"lib/deep/x.go", "lib/hello.go", "main.go"}},
		{name: "top only", args: `{"pattern":"*.go"}`, want: []string{"main.go"}},
		{name: "from a folder", args: `{"pattern":"*.go","path":"lib"}`, want: []string{"lib/hello.go"}},
		{name: "alternatives", args: `{"pattern":"**/*.{md,plan}"}`, want: []string{"lib/readme.md", "plans/calm.plan"}},
		{name: "no match", args: `{"pattern":"**/*.rs"}`, want: []string{}},
		{name: "no pattern", args: `{}`, wantError: []string{"pattern is required"}},
		{name: "escaping pattern", args: `{"pattern":"../*"}`, wantError: []string{"must not contain '..'"}},
		{name: "outside base", args: `{"pattern":"*","path":"/"}`, wantError: []string{"outside the workspace"}},
		{name: "base is a file", args: `{"pattern":"*","path":"main.go"}`, wantError: []string{"not an existing folder"}},
		{name: "missing base", args: `{"pattern":"*","path":"nope"}`, wantError: []string{"nope does not exist"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newFake(t, searchFiles)
			r := call(t, globTool, env, tt.args)
			if tt.wantError != nil {
				wantFail(t, r, tt.wantError...)
				return
			}
			var got GlobOutput
			value(t, r, &got)
			if !reflect.DeepEqual(got.Matches, tt.want) || got.Count != len(tt.want) {
				t.Errorf("matches = %q (count %d), want %q", got.Matches, got.Count, tt.want)
			}
		})
	}
}

func TestGrep(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		args      string
		want      []GrepHit
		wantError []string
	}{
		{name: "regexp", args: `{"pattern":"func \\w+\\(\\)"}`, want: []GrepHit{
			{Path: "lib/hello.go", Line: 3, Text: "func hello() {"},
			{Path: "main.go", Line: 3, Text: "func main() {"},
		}},
		{name: "case insensitive with include", args: `{"pattern":"hello","case_insensitive":true,"include":"*.go","path":"lib"}`, want: []GrepHit{
			{Path: "lib/deep/x.go", Line: 2, Text: "// HELLO there"},
			{Path: "lib/hello.go", Line: 3, Text: "func hello() {"},
			{Path: "lib/hello.go", Line: 4, Text: "\tprintln(\"Hello\")"},
		}},
		{name: "context", args: `{"pattern":"hello\\(\\)$","path":"main.go","context":1}`, want: []GrepHit{
			{Path: "main.go", Line: 4, Text: "\thello()", Before: []string{"func main() {"}, After: []string{"}"}},
		}},
		{name: "no match", args: `{"pattern":"zebra"}`, want: []GrepHit{}},
		{name: "bad regexp", args: `{"pattern":"(unclosed"}`, wantError: []string{"(unclosed"}},
		{name: "no pattern", args: `{"path":"lib"}`, wantError: []string{"pattern is required"}},
		{name: "missing path", args: `{"pattern":"x","path":"nope"}`, wantError: []string{"nope does not exist"}},
		{name: "outside", args: `{"pattern":"x","path":"../"}`, wantError: []string{"outside the workspace"}},
		{name: "negative context", args: `{"pattern":"x","context":-2}`, wantError: []string{"must not be negative"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newFake(t, searchFiles)
			r := call(t, grepTool, env, tt.args)
			if tt.wantError != nil {
				wantFail(t, r, tt.wantError...)
				return
			}
			var got GrepOutput
			value(t, r, &got)
			if !reflect.DeepEqual(got.Matches, tt.want) {
				t.Errorf("matches = %+v\nwant      %+v", got.Matches, tt.want)
			}
			if got.Truncated || got.FilesSearched == 0 {
				t.Errorf("truncated = %v, files_searched = %d", got.Truncated, got.FilesSearched)
			}
		})
	}
}

func TestGrepTruncates(t *testing.T) {
	t.Parallel()
	env := newFake(t, map[string]string{"a.txt": "x\nx\nx\nx\n"})
	var got GrepOutput
	value(t, call(t, grepTool, env, `{"pattern":"x","max_results":2}`), &got)
	if len(got.Matches) != 2 || !got.Truncated {
		t.Errorf("got %d matches, truncated %v; want 2, true", len(got.Matches), got.Truncated)
	}
}

// TestGrepByteCap: matches beyond MaxGrepBytes of text are left out, as
// truncated, even under max_results.
func TestGrepByteCap(t *testing.T) {
	t.Parallel()
	line := "match " + strings.Repeat("y", 1994) + "\n"
	env := newFake(t, map[string]string{"a.txt": strings.Repeat(line, 1000)})
	var got GrepOutput
	r := call(t, grepTool, env, `{"pattern":"match","max_results":1000}`)
	value(t, r, &got)
	if !got.Truncated || len(got.Matches) == 0 || len(got.Matches) >= 1000 {
		t.Fatalf("got %d matches, truncated %v", len(got.Matches), got.Truncated)
	}
	if n := len(r.JSON()); n > MaxGrepBytes+4096 {
		t.Fatalf("grep result is %d bytes, cap %d", n, MaxGrepBytes)
	}
}
