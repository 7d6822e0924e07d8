package workspace

import (
	"path/filepath"
	"strings"
)

// HideFromWalks keeps these folders and files (absolute paths; relative ones
// are ignored) out of every listing and search of the workspace (ls, glob,
// grep and the walks built on them), as .git and .agentls are: agentls's
// own state and configuration folders, which the guard refuses to read by
// name, must not be read wholesale by a search of a folder that holds them
// (a workspace at the home folder). Each call replaces the list. Safe for
// concurrent use.
func (w *Workspace) HideFromWalks(paths ...string) {
	var hidden []string
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			continue
		}
		hidden = append(hidden, filepath.Clean(p))
		if real, err := Canonical(p); err == nil && real != filepath.Clean(p) {
			hidden = append(hidden, real)
		}
	}
	w.hidden.Store(&hidden)
}

// hiddenFromWalks reports whether a walk must skip abs (an entry's path as
// the walk met it), compared case-insensitively.
func (w *Workspace) hiddenFromWalks(abs string) bool {
	h := w.hidden.Load()
	if h == nil {
		return false
	}
	for _, p := range *h {
		if strings.EqualFold(abs, p) {
			return true
		}
	}
	return false
}
