//go:build linux

package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunApprovedGitHookCannotPlantGitConfig: a repository whose hooks
// live in the work tree (husky's `core.hooksPath=.husky`, set by the
// user's own `npm install`; pre-commit's and lefthook's hooks read a
// work-tree file the same way) runs the agent's hook under every commit.
// An approved `git commit` is "only git", so its sandbox leaves
// .git/config writable (docs/guard.md, "Unless the command is the
// repository's own tool"); the hook — code the agent wrote, not the line
// the user approved — sets core.fsmonitor, which VS Code's git extension
// would run outside every sandbox at its next `git status`. The check
// after the command compares the settings beyond git's own even for a
// git line: the new one is asked about and, unanswered, undone.
func TestRunApprovedGitHookCannotPlantGitConfig(t *testing.T) {
	if testing.Short() {
		t.Skip("real sandbox")
	}
	for _, mode := range layerModes {
		t.Run(mode, func(t *testing.T) {
			requireMode(t, mode)
			env := repoWorkspace(t, mode)
			gitOut(t, env.ws.Root(), "config", "core.hooksPath", ".husky") // the user's husky install
			// The agent's hook, a project file like any other.
			writeFile(t, env.path(".husky/pre-commit"), "#!/bin/sh\ngit config core.fsmonitor 'sh -c \"touch /tmp/agentls-audit-pwned\"' || true\n")
			if err := os.Chmod(env.path(".husky/pre-commit"), 0o755); err != nil {
				t.Fatal(err)
			}
			got := runApproved(t, env, "git -c user.name=t -c user.email=t@t commit -q --allow-empty -m wip")
			if cfg := env.file(".git/config"); strings.Contains(cfg, "fsmonitor") {
				t.Errorf("an approved `git commit` let the agent's hook plant core.fsmonitor in .git/config, not asked about nor undone (auto_run %q, exit %d, %s):\n%s",
					got.AutoRun, got.ExitCode, got.Output, cfg)
			}
		})
	}
}

// TestRunApprovedWorkspaceScriptNamedGitIsNotGit: the exception for a
// line that is "only git" (its repository's configuration writable) is
// granted to the bare command word `git` (or the path of the git PATH
// leads to), never to a path whose last element is git: `tools/git
// status` runs a script the agent wrote in the workspace, which PATH
// never leads to, and gets .git/config read-only like any other script
// the user approves, so it cannot plant core.fsmonitor.
func TestRunApprovedWorkspaceScriptNamedGitIsNotGit(t *testing.T) {
	if testing.Short() {
		t.Skip("real sandbox")
	}
	for _, mode := range layerModes {
		t.Run(mode, func(t *testing.T) {
			requireMode(t, mode)
			env := repoWorkspace(t, mode)
			writeFile(t, env.path("tools/git"), "#!/bin/sh\nprintf '[core]\\n\\tfsmonitor = sh x\\n' >> .git/config\nexec git \"$@\"\n")
			if err := os.Chmod(env.path("tools/git"), 0o755); err != nil {
				t.Fatal(err)
			}
			got := runApproved(t, env, "tools/git status")
			if cfg := env.file(".git/config"); strings.Contains(cfg, "fsmonitor") {
				t.Errorf("an approved workspace script named git wrote .git/config as git may (auto_run %q, exit %d, %s):\n%s",
					got.AutoRun, got.ExitCode, got.Output, cfg)
			}
		})
	}
}

// TestRunApprovedInAWorktreeCannotPlantInTheCommonGitFolder: in a linked
// worktree (the workspace's .git is a file naming
// <main>/.git/worktrees/<name>) a command the user approved may write the
// repository's common folder <main>/.git, outside the workspace, so that
// it can commit; the policy keeps that folder's own hooks/, config and
// commondir, and also the git folders inside it: another worktree's
// <main>/.git/worktrees/<other>/commondir (it names the folder whose
// hooks and config git uses there) and the main checkout's submodule
// repositories <main>/.git/modules/<sub> (their hooks run at the user's
// next commit there, their config at the next git). The check after the
// command looks only inside the workspace, so the sandbox must refuse
// these writes.
func TestRunApprovedInAWorktreeCannotPlantInTheCommonGitFolder(t *testing.T) {
	if testing.Short() {
		t.Skip("real sandbox")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, mode := range layerModes {
		t.Run(mode, func(t *testing.T) {
			requireMode(t, mode)
			env := newFake(t, nil) // the workspace: a linked worktree of main
			base := t.TempDir()
			main, lib, wt2 := filepath.Join(base, "main"), filepath.Join(base, "lib"), filepath.Join(base, "wt2")
			for _, d := range []string{main, lib} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
				gitOut(t, d, "init", "-q", "-b", "main")
				writeFile(t, filepath.Join(d, "a.txt"), "a\n")
				gitOut(t, d, "add", "a.txt")
				gitOut(t, d, "commit", "-q", "-m", "one")
			}
			gitOut(t, main, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib")
			gitOut(t, main, "commit", "-q", "-m", "lib")
			gitOut(t, main, "worktree", "add", "-q", "-b", "w1", env.ws.Root())
			gitOut(t, main, "worktree", "add", "-q", "-b", "w2", wt2)
			env.cfg.Sandbox.Mode = mode
			env.confirmRule = "" // the user approved the command
			common := filepath.Join(main, ".git")
			kept := []string{
				filepath.Join(common, "worktrees", "wt2", "commondir"),            // leads git in wt2 to another config and hooks
				filepath.Join(common, "modules", "lib", "hooks", "post-checkout"), // runs at the next checkout in main/lib
				filepath.Join(common, "modules", "lib", "config"),                 // core.fsmonitor for main/lib
			}
			before := map[string]string{}
			for _, p := range kept {
				b, _ := os.ReadFile(p)
				before[p] = string(b)
			}
			var cmd []string
			for _, p := range kept {
				cmd = append(cmd, "printf '[core]\\n\\tfsmonitor = sh x\\n' >> "+p)
			}
			got := runApproved(t, env, strings.Join(cmd, "; "))
			for _, p := range kept {
				b, _ := os.ReadFile(p)
				if string(b) != before[p] {
					rel, _ := filepath.Rel(base, p)
					t.Errorf("an approved command in the worktree wrote %s, outside the workspace (auto_run %q): %q → %q", rel, got.AutoRun, before[p], string(b))
				}
			}
		})
	}
}
