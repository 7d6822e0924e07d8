package tools

import (
	"io/fs"
	"log/slog"
	"path/filepath"
	"strings"

	"github.com/agentls/agentls/guard"
)

// vcsNames are the version-control folders the guard keeps every tool from
// at any depth (guard/protected.go): their configuration and hooks run
// programs when the user, or the editor by itself (VS Code's git extension
// in a nested repository), runs the version-control tool outside any
// sandbox.
var vcsNames = []string{".git", ".hg", ".svn", ".jj"}

// maxVCSWalk bounds the entries looked at for one command's policy.
const maxVCSWalk = 200_000

// workspaceScan is what one bounded walk of the workspace folders found,
// as it exists when the command starts.
type workspaceScan struct {
	// vcs are the version-control folders (and `.git` files) at any
	// depth, each folder's own included.
	vcs []string
	// autoRun are the files and folders that make an editor or shell run
	// programs by itself (guard.IsAutoRunName), and symbolic links named
	// like one, but none below a node_modules folder (inPackages).
	autoRun []string
}

// scanWorkspace walks folders once, neither into a version-control or
// auto-run folder nor along a symbolic link, and stops after maxVCSWalk
// entries (the log says so).
func scanWorkspace(folders []string) workspaceScan {
	var out workspaceScan
	budget := maxVCSWalk
	for _, root := range folders {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // unreadable: nothing found there
			}
			if budget--; budget < 0 {
				return filepath.SkipAll
			}
			if p == root {
				return nil
			}
			name, dir := d.Name(), d.IsDir()
			link := d.Type()&fs.ModeSymlink != 0
			switch {
			case isVCSName(name):
				out.vcs = append(out.vcs, p)
			// A link so named: an editor follows it, and the sandbox keeps
			// its target read-only too.
			case (guard.IsAutoRunName(name, dir) || link && guard.IsAutoRunName(name, !dir)) && !inPackages(root, p):
				out.autoRun = append(out.autoRun, p)
			default:
				return nil
			}
			if dir {
				return filepath.SkipDir
			}
			return nil
		})
		if err != nil {
			slog.Debug("sandbox: looking for repositories and auto-run files", "folder", root, "err", err)
		}
	}
	if budget < 0 {
		slog.Warn("sandbox: stopped looking for nested repositories and auto-run files to keep read-only", "limit", maxVCSWalk)
	}
	return out
}

// inPackages reports whether p lies below a node_modules folder of root:
// the package manager replaces such folders whole (`npm ci` removes
// node_modules; a read-only mount in it would stop that), a command can
// make any file there anew, and neither editor opens them as a project
// (VS Code's git extension skips them too).
func inPackages(root, p string) bool {
	rel, err := filepath.Rel(root, filepath.Dir(p))
	if err != nil {
		return false
	}
	for _, e := range strings.Split(filepath.ToSlash(rel), "/") {
		if strings.EqualFold(e, "node_modules") {
			return true
		}
	}
	return false
}

// isVCSName reports a version-control folder's name, letter case folded.
func isVCSName(name string) bool {
	for _, n := range vcsNames {
		if strings.EqualFold(name, n) {
			return true
		}
	}
	return false
}
