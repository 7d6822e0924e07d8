package tools

import (
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Approval is who let a process start, which decides what of the
// workspace's repositories it may change (CommandPolicy).
type Approval struct {
	// User is set for a command the user approved (not auto-allowed).
	User bool
	// Tool is the version-control tool every simple command of that
	// command runs (vcsTool: "git", "hg", "jj"), or "".
	Tool string
	// AnyGitConfig is set when sandbox.allow_git_config lets the command
	// write git's configuration as git may (Tool is then "git"): the check
	// after it does not compare the configuration at all.
	AnyGitConfig bool
}

// Unasked is the approval of a process nobody was asked about: an
// auto-allowed command, an MCP stdio server, a language server.
var Unasked = Approval{}

// approvedCommand is the approval of a command line the user approved;
// untrusted are the PATH folders it does not get (vcsTool).
func approvedCommand(command string, untrusted []string) Approval {
	return Approval{User: true, Tool: vcsTool(command, untrusted)}
}

// gitKept are the files and folders of a git folder that run programs
// outside any sandbox, or lead git to other ones that do: hooks/,
// config (core.fsmonitor, core.hooksPath, aliases, filters…),
// config.worktree (the same, per worktree) and commondir (names the folder
// whose hooks and config git then uses).
var gitKept = []string{"hooks", "config", "config.worktree", "commondir"}

// gitToolWrites are those that git itself writes for a command the user
// approved and that runs nothing but git (`git checkout --track`,
// `git remote add`, `git push -u`, `git config user.email`).
var gitToolWrites = []string{"config", "config.worktree"}

// repoGuard is the part of a policy that keeps the workspace's
// repositories' hooks and configuration as they are.
type repoGuard struct {
	readOnly, mountReadOnly, fixed []string
}

// guardRepos keeps, for a command the user approved (a), what in each
// repository found (vcs, scanWorkspace) runs programs outside the
// sandbox: a git folder's gitKept, its `.git` file when it is one (and
// what that names, as gitlink.go accepts it, with the other worktrees'
// folders and the submodules' git folders of its common folder),
// Mercurial's .hg/hgrc
// ([hooks], [extensions]) and Jujutsu's .jj/repo/config.toml (aliases,
// fix tools, editors, signing programs); Subversion keeps nothing of the
// kind in a working copy. The repository's folder is fixed (no new
// entries such as a `commondir`, none renamed or removed) and these paths
// read-only — unless every simple command of the line is that
// repository's own tool, which creates its lock files in that folder:
// then nothing is fixed, only bubblewrap keeps them read-only
// (Landlock alone could only by taking git its folder), and git's
// configuration stays writable. A git folder without hooks/ gets an empty
// one first, so that there is one to keep.
func guardRepos(vcs []string, a Approval) repoGuard {
	var g repoGuard
	seen := map[string]bool{}
	for _, p := range vcs {
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		switch strings.ToLower(filepath.Base(p)) {
		case ".git":
			if fi.Mode().IsRegular() {
				g.readOnly = append(g.readOnly, p) // a new gitdir: line would lead git elsewhere
				if l, ok := readGitLink(filepath.Dir(p)); ok && l.common != "" {
					g.gitFolder(l.gitdir, a, seen)
					g.gitFolder(l.common, a, seen)
					// The common folder is writable for this command
					// (linkedGitDirs): the git folders inside it stay
					// kept as the workspace's own would be.
					g.worktreeFolders(l.common, a, seen)
					g.moduleFolders(filepath.Join(l.common, "modules"), a, seen, 0)
				} else if ok && looksLikeGitDir(l.gitdir) {
					// Any other git folder it names (`git init
					// --separate-git-dir=.gitstore`) is kept too: git
					// runs its hooks and config as those of a .git
					// folder, and inside the workspace commands could
					// write them (read-only elsewhere anyway).
					g.gitFolder(l.gitdir, a, seen)
				}
			} else if fi.IsDir() {
				g.gitFolder(p, a, seen)
				g.worktreeFolders(p, a, seen)
				g.moduleFolders(filepath.Join(p, "modules"), a, seen, 0)
			}
		case ".hg":
			if fi.IsDir() {
				g.keep(p, []string{"hgrc"}, a.Tool == "hg", nil)
			}
		case ".jj":
			if fi.IsDir() {
				g.keep(filepath.Join(p, "repo"), []string{"config.toml"}, a.Tool == "jj", nil)
			}
		}
	}
	return g
}

// looksLikeGitDir reports whether dir is a git folder (its HEAD file and
// objects/ folder): only such a folder named by a `.git` file is kept, and
// gets a hooks/ made (ensureHooks), not any folder a `.git` file names.
func looksLikeGitDir(dir string) bool {
	head, err := os.Lstat(filepath.Join(dir, "HEAD"))
	if err != nil || !head.Mode().IsRegular() {
		return false
	}
	objects, err := os.Lstat(filepath.Join(dir, "objects"))
	return err == nil && objects.IsDir()
}

// gitFolder keeps one git folder (once).
func (g *repoGuard) gitFolder(dir string, a Approval, seen map[string]bool) {
	if seen[dir] {
		return
	}
	seen[dir] = true
	ensureHooks(dir)
	var writable []string
	if a.Tool == "git" {
		writable = gitToolWrites
	}
	g.keep(dir, gitKept, a.Tool == "git", writable)
}

// worktreeFolders keeps the git folder of each linked worktree of the
// repository whose git folder is dir (<dir>/worktrees/<name>): its
// commondir and config.worktree choose the hooks and configuration of a
// worktree elsewhere, which the user may commit in.
func (g *repoGuard) worktreeFolders(dir string, a Approval, seen map[string]bool) {
	entries, err := os.ReadDir(filepath.Join(dir, "worktrees"))
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() {
			g.gitFolder(filepath.Join(dir, "worktrees", e.Name()), a, seen)
		}
	}
}

// moduleDepth bounds how deep moduleFolders looks: a submodule's name may
// hold slashes (modules/libs/a), and a submodule's own submodules lie in
// its modules/ folder.
const moduleDepth = 8

// moduleFolders keeps each submodule's git folder below modules (a git
// folder's modules/, where git keeps its submodules' repositories), and
// theirs in turn: its hooks run and its config is read at the user's next
// git command in the submodule's checkout, which may lie outside the
// workspace (the main checkout of a worktree the workspace is).
func (g *repoGuard) moduleFolders(modules string, a Approval, seen map[string]bool, depth int) {
	if depth >= moduleDepth {
		return
	}
	entries, err := os.ReadDir(modules)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(modules, e.Name())
		if looksLikeGitDir(dir) {
			g.gitFolder(dir, a, seen)
			g.moduleFolders(filepath.Join(dir, "modules"), a, seen, depth+1)
			continue
		}
		g.moduleFolders(dir, a, seen, depth+1) // a name with a slash: modules/libs/a
	}
}

// keep adds folder's kept names: read-only and folder fixed, or, for the
// repository's own tool, read-only where bubblewrap runs (but those the
// tool writes).
func (g *repoGuard) keep(folder string, names []string, ownTool bool, toolWrites []string) {
	if fi, err := os.Lstat(folder); err != nil || !fi.IsDir() {
		return
	}
	for _, n := range names {
		p := filepath.Join(folder, n)
		switch {
		case !ownTool:
			g.readOnly = append(g.readOnly, p)
		case !slices.Contains(toolWrites, n):
			g.mountReadOnly = append(g.mountReadOnly, p)
		}
	}
	if !ownTool {
		g.fixed = append(g.fixed, folder)
	}
}

// ensureHooks makes the empty hooks/ folder git init makes (0755) in a
// git folder without one, so that it exists to be kept read-only: the
// sandbox cannot protect a path that does not exist. A worktree's own git
// folder (<common>/worktrees/<name>) has none and gets none: git uses
// <common>/hooks.
func ensureHooks(dir string) {
	if filepath.Base(filepath.Dir(dir)) == "worktrees" {
		if _, err := os.Stat(filepath.Join(dir, "commondir")); err == nil {
			return
		}
	}
	hooks := filepath.Join(dir, "hooks")
	if _, err := os.Lstat(hooks); !errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err := os.Mkdir(hooks, 0o755); err != nil {
		slog.Warn("sandbox: could not make the git folder's hooks folder to keep it read-only", "dir", hooks, "err", err)
	}
}
