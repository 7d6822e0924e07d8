package tools

import (
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// linkedGitDirs are the git folders that a `.git` file in folder names
// ("gitdir: <path>") and that a command the user approved may write
// besides the workspace, when they are what git itself lays out:
//
//   - a worktree's folder <common>/worktrees/<name>, whose own `gitdir`
//     file names folder's `.git` back and whose `commondir` names <common>
//     (both folders are returned);
//   - a submodule's folder inside <top>/.git/modules/ of a folder <top>
//     above folder (the superproject).
//
// Anything else — a `.git` file naming any other folder, a `commondir`
// naming another one, a link whose deciding files lie in a folder already
// writable (writable: the workspace folders and sandbox.allow_write, which
// commands can fill) — adds nothing: a command can write a `.git` file
// where none existed (the sandbox cannot protect a path that does not
// exist yet), and the next approved command would otherwise write
// wherever it points (docs/guard.md, Sandbox).
func linkedGitDirs(folder string, writable []string) []string {
	l, ok := readGitLink(folder)
	if !ok {
		return nil
	}
	for _, w := range writable {
		if rw, err := filepath.EvalSymlinks(w); err == nil && pathWithin(l.gitdir, rw) {
			return nil // already writable, and its files are the commands' to write
		}
	}
	switch {
	case l.common == "":
		slog.Warn("sandbox: a .git file names a folder git did not link to this one; it stays read-only", "git", filepath.Join(folder, ".git"), "gitdir", l.named)
		return nil
	case l.common != l.gitdir:
		return []string{l.gitdir, l.common}
	}
	return []string{l.gitdir}
}

// namedGitDirs are the git folders the `.git` files among vcs
// (scanWorkspace) name, when they are git folders (looksLikeGitDir): a
// command that runs without asking gets them read-only whole, like each
// `.git` folder — git runs their hooks and config as a .git folder's, and
// one inside the workspace (`git init --separate-git-dir=.gitstore`) is
// not named like one.
func namedGitDirs(vcs []string) []string {
	var out []string
	for _, p := range vcs {
		if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() || !strings.EqualFold(filepath.Base(p), ".git") {
			continue
		}
		l, ok := readGitLink(filepath.Dir(p))
		if !ok {
			continue
		}
		for _, d := range []string{l.gitdir, l.common} {
			if d != "" && looksLikeGitDir(d) && !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	return out
}

// gitLink is what a `.git` file names.
type gitLink struct {
	// named is the path as the file spells it.
	named string
	// gitdir is the folder it names (real).
	gitdir string
	// common is the repository's common folder when git laid gitdir out
	// for this folder: a worktree's <common>, a submodule's gitdir itself;
	// "" for any other folder.
	common string
}

// readGitLink reads the `.git` file in folder; false when there is none,
// it names nothing, or what it names does not exist.
func readGitLink(folder string) (gitLink, bool) {
	b, err := os.ReadFile(filepath.Join(folder, ".git"))
	if err != nil {
		return gitLink{}, false
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
	if !ok || dir == "" {
		return gitLink{}, false
	}
	l := gitLink{named: dir}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(folder, dir)
	}
	if l.gitdir, err = filepath.EvalSymlinks(dir); err != nil {
		return gitLink{}, false
	}
	realFolder, err := filepath.EvalSymlinks(folder)
	if err != nil {
		return gitLink{}, false
	}
	if common, ok := worktreeCommon(l.gitdir, realFolder); ok {
		l.common = common
	} else if submoduleOf(l.gitdir, realFolder) {
		l.common = l.gitdir
	}
	return l, true
}

// worktreeCommon is the repository's common folder when gitdir is the
// administrative folder of the worktree at folder (all paths real):
// gitdir is <common>/worktrees/<name>, its `gitdir` file names
// folder/.git and its `commondir` (if any) names <common>.
func worktreeCommon(gitdir, folder string) (string, bool) {
	parent := filepath.Dir(gitdir)
	if filepath.Base(parent) != "worktrees" {
		return "", false
	}
	common := filepath.Dir(parent)
	back, ok := linkFile(gitdir, "gitdir")
	if !ok || back != filepath.Join(folder, ".git") {
		return "", false
	}
	if c, ok := linkFile(gitdir, "commondir"); ok && c != common {
		return "", false
	}
	return common, true
}

// submoduleOf reports whether gitdir (real) lies inside <top>/.git/modules/
// of a folder <top> above folder (real), with <top>/.git a folder: where
// git keeps a submodule's repository.
func submoduleOf(gitdir, folder string) bool {
	for top := filepath.Dir(folder); ; top = filepath.Dir(top) {
		modules := filepath.Join(top, ".git", "modules")
		if fi, err := os.Lstat(filepath.Join(top, ".git")); err == nil && fi.IsDir() && gitdir != modules && pathWithin(gitdir, modules) {
			return true
		}
		if filepath.Dir(top) == top {
			return false
		}
	}
}

// linkFile reads a one-line path file of a git folder (`gitdir`,
// `commondir`), relative paths taken from dir, symlinks evaluated.
func linkFile(dir, name string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return "", false
	}
	p := strings.TrimSpace(string(b))
	if p == "" {
		return "", false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", false
	}
	return real, true
}

// pathWithin reports whether path is dir or inside it (both clean).
func pathWithin(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
