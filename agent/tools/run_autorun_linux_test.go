package tools

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/sandbox"
)

// layerModes are the sandbox modes a repository promise is proven in,
// each where this machine has its layers.
var layerModes = []string{"auto", "bwrap", "landlock"}

// requireMode skips when this machine lacks the layers of mode.
func requireMode(t *testing.T, mode string) {
	t.Helper()
	st := sandbox.Detect().Status(sandbox.Mode(mode))
	want := mode
	if mode == "auto" {
		want = "landlock+bwrap"
	}
	if st.Mode != want {
		t.Skipf("needs %s: %s", want, st.Summary)
	}
}

// gitOut runs git outside the sandbox (the test's own setup and checks).
func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return string(out)
}

// repoWorkspace is a workspace holding a real git repository with one
// commit, a remote (origin, fetched), a hook (pre-push, not executable), a
// nested repository, a Mercurial folder, the files that make an editor
// or shell run programs by themselves (a linked sub/.vscode among them)
// and node_modules/ (under Landlock alone nothing new can be made at the
// top, docs/guard.md), in mode.
func repoWorkspace(t *testing.T, mode string) *fakeEnv {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	env := newFake(t, map[string]string{
		"a.txt":                                  "a\n",
		"src/main.go":                            "package main\n",
		".vscode/tasks.json":                     "{}\n",
		"sub/.dir-locals.el":                     "()\n",
		".envrc":                                 "\n",
		"App.Code-Workspace":                     "{}\n",
		".hg/hgrc":                               "[ui]\n",
		"conf/vscode/tasks.json":                 "{}\n",
		"node_modules/.keep":                     "",
		"node_modules/pkg/.vscode/settings.json": "{}\n",
	})
	root := env.ws.Root()
	gitOut(t, root, "init", "-q", "-b", "main")
	gitOut(t, root, "add", "a.txt")
	gitOut(t, root, "commit", "-q", "-m", "one")
	origin := filepath.Join(t.TempDir(), "origin.git")
	gitOut(t, root, "init", "-q", "--bare", origin)
	gitOut(t, root, "remote", "add", "origin", origin)
	gitOut(t, root, "push", "-q", "origin", "main")
	gitOut(t, root, "fetch", "-q", "origin")
	writeFile(t, env.path(".git/hooks/pre-push"), "#!/bin/sh\n")
	nested := env.path("vendor/dep")
	if err := os.MkdirAll(nested, 0o755); err != nil {
		t.Fatal(err)
	}
	gitOut(t, nested, "init", "-q")
	if err := os.Symlink("../conf/vscode", env.path("sub/.vscode")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere", env.path(".idea")); err != nil { // a link that leads nowhere starts nothing, and stops nothing
		t.Fatal(err)
	}
	env.cfg.Sandbox.Mode = mode
	env.confirmRule = "" // the user approved each command
	return env
}

// runApproved runs command as the user approved it.
func runApproved(t *testing.T, env *fakeEnv, command string) RunOutput {
	t.Helper()
	args, err := json.Marshal(map[string]string{"command": command})
	if err != nil {
		t.Fatal(err)
	}
	var got RunOutput
	value(t, call(t, runTool, env, string(args)), &got)
	return got
}

// snapshot is the content and mode of the kept paths of a workspace.
func snapshot(env *fakeEnv) map[string]string {
	out := map[string]string{}
	for _, rel := range []string{".git/config", ".git/hooks/pre-push", ".git/hooks/pre-commit", ".git/commondir", ".git/hooks",
		".vscode/tasks.json", "sub/.dir-locals.el", ".envrc", "App.Code-Workspace", ".hg/hgrc", "conf/vscode/tasks.json",
		"vendor/dep/.git/config", "vendor/dep/.git/hooks/pre-commit", "sub/.vscode"} {
		p := env.path(rel)
		fi, err := os.Lstat(p)
		if err != nil {
			out[rel] = "missing"
			continue
		}
		b, _ := os.ReadFile(p)
		out[rel] = fi.Mode().String() + " " + string(b)
	}
	return out
}

// TestRunApprovedCannotPlantAutoRun: a command the user approved (`npm
// install`, `make test`) runs code the agent may have written (a
// postinstall script, a Makefile); that code must not change what runs
// outside the sandbox by itself later — a repository's hooks and
// configuration (run at the user's next commit, or by VS Code's git
// extension), Mercurial's hgrc, or the files that make the editor or
// shell start programs (.vscode/tasks.json with a folderOpen task,
// .dir-locals.el, .envrc, *.code-workspace) — in any way: writing,
// creating, renaming the folder away and making a new one, through a
// symbolic link it makes, or a `commondir` that leads git elsewhere. Each
// fails on 4ed693b, where an approved command wrote all of the
// workspace.
func TestRunApprovedCannotPlantAutoRun(t *testing.T) {
	if testing.Short() {
		t.Skip("real sandbox")
	}
	tests := []struct {
		name, command string
		// bwrapOnly: Landlock has no right for it (chmod), or a bind mount
		// lands on a link's target (the link itself can go): only the
		// other layer holds.
		landlockOnly, bwrapOnly bool
	}{
		{name: "new hook", command: "echo 'echo pwned' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit"},
		{name: "existing hook", command: "echo 'echo pwned' >> .git/hooks/pre-push"},
		{name: "chmod a hook", command: "chmod +x .git/hooks/pre-push"},
		{name: "config", command: "printf '[core]\\n\\tfsmonitor = sh x\\n' >> .git/config"},
		{name: "config replaced", command: "mv .git/config .git/c2; echo '[core]' > .git/config"},
		{name: "hooks renamed away", command: "mv .git/hooks .git/h2; mkdir .git/hooks; echo pwned > .git/hooks/pre-commit"},
		{name: "git folder renamed away", command: "mv .git .git2 && cp -a .git2 .git && echo pwned > .git/hooks/pre-commit"},
		{name: "through a link", command: "ln -s .git/hooks h; echo pwned > h/pre-commit"},
		{name: "commondir", command: "mkdir -p /tmp/x/hooks; echo /tmp/x > .git/commondir"},
		{name: "vscode tasks", command: "echo '{\"tasks\":[]}' > .vscode/tasks.json"},
		{name: "vscode removed and made anew", command: "rm -rf .vscode; mkdir .vscode; echo pwned > .vscode/tasks.json"},
		{name: "dir-locals", command: "echo '((nil . ((eval . (x)))))' > sub/.dir-locals.el"},
		{name: "envrc", command: "echo pwned >> .envrc"},
		{name: "code-workspace", command: "echo pwned > App.Code-Workspace"},
		{name: "hgrc", command: "printf '[hooks]\\nupdate = sh x\\n' >> .hg/hgrc"},
		{name: "nested hooks", command: "echo pwned > vendor/dep/.git/hooks/pre-commit"},
		{name: "nested config", command: "echo '[core]' >> vendor/dep/.git/config"},
		{name: "a linked .vscode's target", command: "echo pwned > sub/.vscode/tasks.json"},
		{name: "a linked .vscode replaced", command: "rm sub/.vscode && mkdir sub/.vscode && echo pwned > sub/.vscode/tasks.json", landlockOnly: true},
	}
	for _, mode := range layerModes {
		t.Run(mode, func(t *testing.T) {
			requireMode(t, mode)
			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					env := repoWorkspace(t, mode)
					before := snapshot(env)
					got := runApproved(t, env, tc.command)
					after := snapshot(env)
					changed := false
					for k, v := range before {
						if after[k] != v {
							changed = true
							if !(tc.bwrapOnly && mode == "landlock") && !(tc.landlockOnly && mode == "bwrap") {
								t.Errorf("%s changed %s: %q → %q (%s)", tc.command, k, v, after[k], got.Output)
							}
						}
					}
					if _, err := os.Lstat(env.path(".git2")); err == nil {
						t.Errorf("%s renamed the git folder away (%s)", tc.command, got.Output)
					}
					if !changed && ((tc.bwrapOnly && mode == "landlock") || (tc.landlockOnly && mode == "bwrap")) {
						t.Logf("%s: held in %s too", tc.name, mode)
					}
				})
			}
		})
	}
}

// TestRunApprovedGitStillWorks: git itself, approved, still commits,
// makes a tracking branch, adds a remote and sets its configuration (git
// writes .git/config and creates its lock files in .git/), and an
// approved build still writes the workspace and replaces a package in
// node_modules (one that ships a .vscode/: `npm ci` removes them all), in
// every layer.
func TestRunApprovedGitStillWorks(t *testing.T) {
	if testing.Short() {
		t.Skip("real sandbox")
	}
	for _, mode := range layerModes {
		t.Run(mode, func(t *testing.T) {
			requireMode(t, mode)
			env := repoWorkspace(t, mode)
			writeFile(t, env.path("a.txt"), "b\n")
			for _, c := range []struct{ command, check string }{
				{"git -c user.name=t -c user.email=t@t commit -q -am two", ""},
				{"git checkout -q -b x --track origin/main", "branch.x.remote"},
				{"timeout 60 git remote add up /nonexistent", "remote.up.url"},
				{"git config user.email me@example.com && git config user.name me", "user.email"},
				{"rm -rf node_modules/pkg && mkdir -p node_modules/pkg && echo x > node_modules/pkg/index.js && echo y > src/new.go", ""},
			} {
				got := runApproved(t, env, c.command)
				if got.ExitCode != 0 {
					t.Errorf("%s: exit %d: %s %s", c.command, got.ExitCode, got.Output, got.Hint)
				}
				if c.check != "" && !strings.Contains(gitOut(t, env.ws.Root(), "config", "--list", "--local"), c.check) {
					t.Errorf("%s: .git/config has no %s", c.command, c.check)
				}
			}
			if log := gitOut(t, env.ws.Root(), "log", "--oneline", "main"); !strings.Contains(log, "two") {
				t.Errorf("the approved commit is not there: %s", log)
			}
			// A command that is not only git gets git's configuration
			// read-only, though it runs git inside (`make` that sets it).
			if got := runApproved(t, env, "echo x > /dev/null && git config user.email other@example.com"); got.ExitCode == 0 {
				t.Errorf("a command that is not only git set git's configuration: %s", got.Output)
			}
		})
	}
}

// TestRunAllowGitConfig: sandbox.allow_git_config lets an approved command
// that is not only git set git's configuration and commit (husky's prepare
// script, npm version), as git itself may; without it the same command is
// refused (TestRunApprovedGitStillWorks).
func TestRunAllowGitConfig(t *testing.T) {
	if testing.Short() {
		t.Skip("real sandbox")
	}
	for _, mode := range layerModes {
		t.Run(mode, func(t *testing.T) {
			requireMode(t, mode)
			env := repoWorkspace(t, mode)
			env.cfg.Sandbox.AllowGitConfig = true
			writeFile(t, env.path("a.txt"), "c\n")
			cmd := "echo x > /dev/null && git config core.hooksPath .husky/_ && git -c user.name=t -c user.email=t@t commit -q -am three"
			if got := runApproved(t, env, cmd); got.ExitCode != 0 {
				t.Fatalf("exit %d: %s %s", got.ExitCode, got.Output, got.Hint)
			}
			if !strings.Contains(gitOut(t, env.ws.Root(), "config", "--list", "--local"), "core.hookspath=.husky/_") {
				t.Error("the setting is not in .git/config")
			}
			if mode != "landlock" { // under Landlock alone hooks/ is kept only from commands git is not
				got := runApproved(t, env, "echo x > /dev/null; echo pwned > .git/hooks/pre-commit")
				if !env.missing(".git/hooks/pre-commit") {
					t.Errorf("hooks/ was writable with allow_git_config: %+v", got)
				}
			}
		})
	}
}

// TestRunMakesMissingHooksFolder: a git folder without hooks/ gets the
// empty one git init makes before an approved command, so it is kept
// read-only like any other; on 4ed693b the command made it and planted a
// hook in it.
func TestRunMakesMissingHooksFolder(t *testing.T) {
	for _, mode := range layerModes {
		t.Run(mode, func(t *testing.T) {
			requireMode(t, mode)
			env := repoWorkspace(t, mode)
			if err := os.RemoveAll(env.path(".git/hooks")); err != nil {
				t.Fatal(err)
			}
			got := runApproved(t, env, "mkdir -p .git/hooks; echo pwned > .git/hooks/pre-commit")
			if !env.missing(".git/hooks/pre-commit") {
				t.Fatalf("an approved command planted a hook in a git folder without hooks/: %+v", got)
			}
			fi, err := os.Stat(env.path(".git/hooks"))
			if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o755 {
				t.Errorf("hooks/ %v, %v; want an empty folder 0755", fi, err)
			}
		})
	}
}

// TestMCPServerCannotPlantAutoRun: an MCP stdio server runs under
// MCPPolicy (nobody was asked about what it does): it can neither change a
// repository nor any auto-run file.
func TestMCPServerCannotPlantAutoRun(t *testing.T) {
	for _, mode := range layerModes {
		t.Run(mode, func(t *testing.T) {
			requireMode(t, mode)
			env := repoWorkspace(t, mode)
			cfg := config.Default()
			cfg.Sandbox.Mode = mode
			pol := MCPPolicy(cfg, env.ws.Folders(), false)
			before := snapshot(env)
			script := "echo pwned > .git/hooks/pre-commit; echo x >> .git/config; echo '{}' > .vscode/tasks.json; echo x >> sub/.dir-locals.el; echo x >> .envrc; echo x > App.Code-Workspace; echo x > vendor/dep/.git/hooks/pre-commit; echo x > sub/.vscode/tasks.json"
			cmd, p, err := sandbox.Command(pol, "", []string{"/bin/sh", "-c", script}, os.Environ())
			if err != nil {
				t.Fatal(err)
			}
			defer p.Cleanup()
			cmd.Dir = env.ws.Root()
			out, _ := cmd.CombinedOutput()
			after := snapshot(env)
			for k, v := range before {
				if after[k] != v {
					t.Errorf("an MCP server changed %s: %q → %q (%s)", k, v, after[k], out)
				}
			}
		})
	}
}
