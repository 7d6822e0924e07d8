package tools

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestVCSTool: only a line whose every simple command is the same
// version-control tool, directly or behind a wrapper that runs its
// operands, gets that tool's own files writable; anything the shell could
// run otherwise (a redirection, a substitution, a variable set for the
// command, a shell behind the wrapper, an option whose value is a word of
// its own) is no tool's.
func TestVCSTool(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"git checkout -b x --track origin/x", "git"},
		{"git fetch && git checkout --track origin/x", "git"},
		{"git remote add up u; git push -u up main", "git"},
		{"timeout 60 git config user.email a@b", "git"},
		{"timeout --signal=KILL 60 git status", "git"},
		{"nice -n5 git gc", "git"},
		{"nohup /usr/bin/git status", "git"},
		{"flock .lock git status", "git"},
		{"git log | git hash-object --stdin", "git"},
		{"git status\ngit log", "git"},
		{"hg commit -m x", "hg"},
		{"jj describe -m x", "jj"},
		{"git status && hg status", ""},
		{"make", ""},
		{"make git", ""},
		{"npm install", ""},
		{"git status > .git/config", ""},
		{"git status; echo x > .git/hooks/pre-commit", ""},
		{"git log | sh", ""},
		{"GIT_DIR=x git status", ""},
		{"git $(echo status)", ""},
		{"(git status)", ""},
		{"git status &", ""},
		{"sh -c 'echo x > .git/config' git", ""},
		{"env git status", ""},
		{"nice -n 10 git status", ""},
		{"timeout -s KILL 60 git status", ""},
		{"flock -c 'echo x > .git/config' git", ""},
		{"timeout 60", ""},
		{"if git status; then git log; fi", ""},
		{"git status # x", ""},
		{"tools/git status", ""},
		{"./git status", ""},
		{"nohup ./git status", ""},
		{"./nohup git status", ""},
		{"/tmp/git status", ""},
	} {
		if got := vcsTool(c.line, nil); got != c.want {
			t.Errorf("vcsTool(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

// TestScanWorkspace: one walk finds the repositories at any depth and the
// auto-run files and folders (a link so named too), looks into neither,
// and leaves out the auto-run files below node_modules, which the package
// manager replaces whole.
func TestScanWorkspace(t *testing.T) {
	env := newFake(t, map[string]string{
		".vscode/tasks.json":            "{}",
		".vscode/.envrc":                "",
		"sub/.dir-locals.el":            "()",
		"sub/App.code-workspace":        "{}",
		"a/.idea":                       "a file named like a folder",
		"node_modules/p/.vscode/x.json": "{}",
		"node_modules/p/.envrc":         "",
		"node_modules/p/.git/config":    "",
		"deep/x/y/.git/config":          "",
		"deep/x/y/.git/hooks/.envrc":    "",
		"src/main.go":                   "package main",
	})
	if err := os.Symlink("../src", env.path("sub/.zed")); err != nil {
		t.Fatal(err)
	}
	scan := scanWorkspace(env.ws.Folders())
	rel := func(paths []string) []string {
		var out []string
		for _, p := range paths {
			r, _ := filepath.Rel(env.ws.Root(), p)
			out = append(out, filepath.ToSlash(r))
		}
		slices.Sort(out)
		return out
	}
	if got, want := rel(scan.autoRun), []string{".vscode", "sub/.dir-locals.el", "sub/.zed", "sub/App.code-workspace"}; !slices.Equal(got, want) {
		t.Errorf("auto-run %q, want %q", got, want)
	}
	if got, want := rel(scan.vcs), []string{"deep/x/y/.git", "node_modules/p/.git"}; !slices.Equal(got, want) {
		t.Errorf("repositories %q, want %q", got, want)
	}
}
