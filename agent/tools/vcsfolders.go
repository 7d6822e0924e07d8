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
	// like one.
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
			switch {
			case isVCSName(name):
				out.vcs = append(out.vcs, p)
			case d.Type()&fs.ModeSymlink != 0 && (guard.IsAutoRunName(name, true) || guard.IsAutoRunName(name, false)):
				// An editor follows the link: its target is what it reads
				// (the sandbox keeps a link's target read-only too).
				out.autoRun = append(out.autoRun, p)
			case guard.IsAutoRunName(name, dir):
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

// isVCSName reports a version-control folder's name, letter case folded.
func isVCSName(name string) bool {
	for _, n := range vcsNames {
		if strings.EqualFold(name, n) {
			return true
		}
	}
	return false
}
