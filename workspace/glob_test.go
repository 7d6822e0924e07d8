package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/golden"
)

// archiveWorkspace builds a workspace from a golden archive's file sections
// (every section except "want").
func archiveWorkspace(t *testing.T, a archive) *Workspace {
	t.Helper()
	files := map[string]string{}
	for _, f := range a.files {
		if f.name != "want" {
			files[f.name] = f.data
		}
	}
	return newTestWorkspace(t, files)
}

func archiveSection(a archive, name string) string {
	for _, f := range a.files {
		if f.name == name {
			return f.data
		}
	}
	return ""
}

func TestGitignoreGolden(t *testing.T) {
	paths, err := filepath.Glob("testdata/ignore/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden archives: %v", err)
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			a := readArchive(t, p)
			ws := archiveWorkspace(t, a)
			got, err := ws.Glob("**", mustResolve(t, ws, "."))
			if err != nil {
				t.Fatal(err)
			}
			gotText := strings.Join(got, "\n") + "\n"
			if golden.Update() {
				writeArchiveWant(t, p, a, gotText)
				return
			}
			if want := archiveSection(a, "want"); gotText != want {
				t.Errorf("Glob(**) mismatch\n got:\n%s\nwant:\n%s", gotText, want)
			}
			// List down to any depth must agree with Glob("**").
			entries, err := ws.List(mustResolve(t, ws, "."), 100)
			if err != nil {
				t.Fatal(err)
			}
			var listed []string
			for _, e := range entries {
				listed = append(listed, e.Path)
			}
			if !slices.Equal(listed, got) {
				t.Errorf("List disagrees with Glob:\n%v\n%v", listed, got)
			}
		})
	}
}

func writeArchiveWant(t *testing.T, path string, a archive, want string) {
	t.Helper()
	var b strings.Builder
	b.WriteString(a.comment)
	for _, f := range a.files {
		if f.name == "want" {
			continue
		}
		b.WriteString("-- " + f.name + " --\n" + f.data)
	}
	b.WriteString("-- want --\n" + want)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestIgnoreRules(t *testing.T) {
	f := parseIgnore("", strings.Join([]string{
		"*.o", "!main.o", "out/", "/top", "a/b", "x/**", "!x/keep", "**/deep/*.txt", `\!bang`, `sp\ `, "[a-c]?.bin", "bad[", "",
	}, "\n"))
	s := ignoreStack{f}
	tests := []struct {
		rel   string
		isDir bool
		want  bool
	}{
		{"z.o", false, true},
		{"d/z.o", false, true},
		{"main.o", false, false},
		{"d/main.o", false, false},
		{"out", true, true},
		{"out", false, false}, // directory-only
		{"d/out", true, true},
		{"top", false, true},
		{"d/top", false, false}, // anchored
		{"a/b", false, true},
		{"d/a/b", false, false},
		{"x", true, false}, // x/** matches inside x, not x
		{"x/y", false, true},
		{"x/y/z", false, true},
		{"x/keep", false, false},
		{"deep/f.txt", false, true},
		{"p/q/deep/f.txt", false, true},
		{"p/q/deep/r/f.txt", false, false},
		{"!bang", false, true},
		{"sp ", false, true},
		{"sp", false, false},
		{"ab.bin", false, true},
		{"db.bin", false, false},
		{"bad[", false, false}, // invalid pattern skipped
	}
	for _, tt := range tests {
		name := tt.rel[strings.LastIndexByte(tt.rel, '/')+1:]
		if got := s.ignored(tt.rel, name, tt.isDir); got != tt.want {
			t.Errorf("ignored(%q, dir=%v) = %v, want %v", tt.rel, tt.isDir, got, tt.want)
		}
	}
	if parseIgnore("", "# only a comment\n\n   \n") != nil {
		t.Error("a .gitignore without rules should give nil")
	}
}

func TestGlobPatterns(t *testing.T) {
	tests := []struct {
		pattern string
		path    string
		want    bool
	}{
		{"*.go", "a.go", true},
		{"*.go", "d/a.go", false},
		{"**/*.go", "a.go", true},
		{"**/*.go", "d/e/a.go", true},
		{"d/**", "d", true},
		{"d/**", "d/e/f", true},
		{"d/**/f", "d/f", true},
		{"d/**/f", "d/x/y/f", true},
		{"d/**/f", "e/f", false},
		{"**", "anything/at/all", true},
		{"?.txt", "a.txt", true},
		{"?.txt", "ab.txt", false},
		{"[!a]*.md", "b.md", true},
		{"[!a]*.md", "a.md", false},
		{"[^a]*.md", "a.md", false},
		{"*.{ts,tsx}", "x.tsx", true},
		{"*.{ts,tsx}", "x.js", false},
		{"{src,lib}/**/*.{go,mod}", "lib/a/go.mod", true},
		{"{src,lib}/**/*.{go,mod}", "cmd/a/x.go", false},
		{"a{b,c{d,e}}f", "acef", true},
		{`\*.go`, "*.go", true},
		{`\*.go`, "a.go", false},
		{"./*.go", "a.go", true},
	}
	for _, tt := range tests {
		g, err := compileGlob(tt.pattern)
		if err != nil {
			t.Fatalf("compileGlob(%q): %v", tt.pattern, err)
		}
		if got := g.match(tt.path); got != tt.want {
			t.Errorf("%q matches %q = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
	for _, bad := range []string{"", "a{b", "[", "x/[a"} {
		if _, err := compileGlob(bad); err == nil {
			t.Errorf("compileGlob(%q) should fail", bad)
		}
	}
	if _, err := compileGlob(strings.Repeat("{a,b,c}", 6)); err == nil {
		t.Error("brace explosion should be refused")
	}
}

func TestGlob(t *testing.T) {
	ws := newTestWorkspace(t, map[string]string{
		".gitignore":            "ignored/\n*.tmp\n",
		"main.go":               "",
		"go.mod":                "",
		"x.tmp":                 "",
		"cmd/tool/main.go":      "",
		"cmd/tool/main_test.go": "",
		"internal/a/a.go":       "",
		"internal/a/a.ts":       "",
		"ignored/x.go":          "",
		".hidden/h.go":          "",
		".git/HEAD":             "",
		".agentls/chats/c.chat": "",
		"empty/":                "",
	})
	root := mustResolve(t, ws, ".")
	tests := []struct {
		pattern string
		base    string
		want    []string
	}{
		{"*.go", ".", []string{"main.go"}},
		{"**/*.go", ".", []string{".hidden/h.go", "cmd/tool/main.go", "cmd/tool/main_test.go", "internal/a/a.go", "main.go"}},
		{"**/*_test.go", ".", []string{"cmd/tool/main_test.go"}},
		{"*.go", "cmd/tool", []string{"cmd/tool/main.go", "cmd/tool/main_test.go"}},
		{"**/*.{go,ts}", "internal", []string{"internal/a/a.go", "internal/a/a.ts"}},
		{"cmd/*", ".", []string{"cmd/tool"}},
		{"*", ".", []string{".gitignore", ".hidden", "cmd", "empty", "go.mod", "internal", "main.go"}},
		{"*.tmp", ".", nil},
		{"**/*.chat", ".", nil},
		{"**/HEAD", ".", nil},
		{"nothing*", ".", nil},
	}
	for _, tt := range tests {
		base := root
		if tt.base != "." {
			base = mustResolve(t, ws, tt.base)
		}
		got, err := ws.Glob(tt.pattern, base)
		if err != nil {
			t.Fatalf("Glob(%q, %s): %v", tt.pattern, tt.base, err)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Glob(%q, %s) = %q, want %q", tt.pattern, tt.base, got, tt.want)
		}
	}
	for _, bad := range []string{"/etc/*", "../*", "a/../../b", "x{"} {
		if _, err := ws.Glob(bad, root); err == nil {
			t.Errorf("Glob(%q) should fail", bad)
		}
	}
	if _, err := ws.Glob("*", mustResolve(t, ws, "main.go")); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("Glob on a file: %v", err)
	}
	if _, err := ws.Glob("*", mustResolve(t, ws, "missing")); err == nil {
		t.Error("Glob on a missing folder should fail")
	}
}

func TestGlobSortOrderIsPathOrder(t *testing.T) {
	// "a.go" < "a/b.go" as strings although the folder "a" sorts before
	// "a.go" by name: the walk must yield string order.
	ws := newTestWorkspace(t, map[string]string{"a/b.go": "", "a.go": "", "a-b.go": "", "a0/c.go": ""})
	got, err := ws.Glob("**/*.go", mustResolve(t, ws, "."))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(got) || len(got) != 4 {
		t.Errorf("Glob = %q, want 4 paths in string order", got)
	}
}

func TestList(t *testing.T) {
	ws := newTestWorkspace(t, map[string]string{
		".gitignore":  "*.log\n",
		"a.txt":       "hello",
		"b/c.txt":     "12",
		"b/d/e.txt":   "",
		"b/x.log":     "",
		".git/config": "",
	})
	if err := os.Symlink("b", filepath.Join(ws.Root(), "link")); err != nil {
		t.Fatal(err)
	}
	root := mustResolve(t, ws, ".")
	got, err := ws.List(root, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{".gitignore", false, 6}, {"a.txt", false, 5}, {"b", true, 0}, {"link", true, 0}}
	if !slices.Equal(got, want) {
		t.Errorf("List depth 0 = %v, want %v", got, want)
	}
	got, err = ws.List(mustResolve(t, ws, "b"), 2)
	if err != nil {
		t.Fatal(err)
	}
	want = []Entry{{"b/c.txt", false, 2}, {"b/d", true, 0}, {"b/d/e.txt", false, 0}}
	if !slices.Equal(got, want) {
		t.Errorf("List b depth 2 = %v, want %v", got, want)
	}
	if _, err := ws.List(mustResolve(t, ws, "a.txt"), 1); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("List of a file: %v", err)
	}
	if _, err := ws.List(mustResolve(t, ws, "nope"), 1); err == nil || !os.IsNotExist(unwrapAll(err)) {
		t.Errorf("List of a missing folder: %v", err)
	}
	if _, err := ws.List(root, -1); err == nil {
		t.Error("negative depth should fail")
	}
}

func unwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		if next := u.Unwrap(); next != nil {
			err = next
		} else {
			return err
		}
	}
}

func TestCmpWalkNames(t *testing.T) {
	names := []struct {
		n   string
		dir bool
	}{{"a", true}, {"a.go", false}, {"a-b", false}, {"a0", true}, {"b", false}, {"a", false}}
	for _, x := range names {
		for _, y := range names {
			kx, ky := x.n, y.n
			if x.dir {
				kx += "/"
			}
			if y.dir {
				ky += "/"
			}
			want := strings.Compare(kx, ky)
			if got := cmpWalkNames(x.n, x.dir, y.n, y.dir); got != want {
				t.Errorf("cmpWalkNames(%q/%v, %q/%v) = %d, want %d", x.n, x.dir, y.n, y.dir, got, want)
			}
		}
	}
}
