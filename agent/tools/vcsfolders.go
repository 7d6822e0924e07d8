package tools

import (
	"io/fs"
	"log/slog"
	"path/filepath"
	"strings"
)

// vcsNames are the version-control folders the guard keeps every tool from
// at any depth (guard/protected.go): their configuration and hooks run
// programs when the user, or the editor by itself (VS Code's git extension
// in a nested repository), runs the version-control tool outside any
// sandbox.
var vcsNames = []string{".git", ".hg", ".svn", ".jj"}

// maxVCSWalk bounds the entries looked at for one command's policy.
const maxVCSWalk = 200_000

// vcsFolders are the version-control folders (and `.git` files) at any
// depth below folders, as they exist now: kept read-only for a command
// that runs without asking (CommandPolicy), beside each folder's own .git.
// Symbolic links are not followed; the walk stops after maxVCSWalk entries
// (and the log says so).
func vcsFolders(folders []string) []string {
	var out []string
	budget := maxVCSWalk
	for _, root := range folders {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // unreadable: nothing found there
			}
			if budget--; budget < 0 {
				return filepath.SkipAll
			}
			if p != root && isVCSName(d.Name()) {
				out = append(out, p)
				if d.IsDir() {
					return filepath.SkipDir
				}
			}
			return nil
		})
		if err != nil {
			slog.Debug("sandbox: looking for repositories", "folder", root, "err", err)
		}
	}
	if budget < 0 {
		slog.Warn("sandbox: stopped looking for nested repositories to keep read-only", "limit", maxVCSWalk)
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
