package workspace

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
)

// skippedDirs are never listed or searched, whatever .gitignore says.
var skippedDirs = map[string]bool{".git": true, ".agentls": true}

// walkEntry is one file system entry met by walk.
type walkEntry struct {
	rel   string      // relative to the workspace folder, slash separated
	abs   string      // absolute path
	name  string      // last segment
	mode  fs.FileMode // type bits (from the directory listing; symlinks not followed)
	depth int         // 1 for the entries of the walk's base
}

func (e *walkEntry) isDir() bool { return e.mode.IsDir() }

// walker walks a workspace folder depth first, in the order of its full
// paths as strings (a folder's entries are sorted as if folder names ended in
// "/"), skipping .git, .agentls and what .gitignore excludes. Symlinks are
// reported but never followed.
type walker struct {
	folder string
	// hidden, when set, says which entries (by absolute path) to skip as
	// if they were not there (Workspace.HideFromWalks).
	hidden func(abs string) bool
	// visit is called for each entry; returning false for a folder skips its
	// contents. A non-nil error stops the walk.
	visit func(e *walkEntry) (descend bool, err error)
}

// run walks the folder base (relative to w.folder).
func (wk *walker) run(ctx context.Context, baseRel string) error {
	return wk.dir(ctx, baseRel, filepath.Join(wk.folder, filepath.FromSlash(baseRel)), 1, ignoreStackAbove(wk.folder, baseRel))
}

func (wk *walker) dir(ctx context.Context, rel, abs string, depth int, ign ignoreStack) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	entries, err := readDirSorted(abs)
	if err != nil {
		if depth > 1 {
			// One unreadable folder (permissions, removed meanwhile) must not
			// fail a whole search.
			slog.Debug("workspace walk: skipping an unreadable folder", "folder", rel, "err", err)
			return nil
		}
		return fmt.Errorf("list %s: %w", displayRel(rel), err)
	}
	for _, d := range entries {
		if d.Name() == ".gitignore" && !d.IsDir() {
			ign = ign.with(loadIgnore(wk.folder, rel))
			break
		}
	}
	for _, d := range entries {
		name := d.Name()
		mode := d.Type()
		if mode.IsDir() && skippedDirs[name] || name == ".git" {
			continue
		}
		childRel := name
		if rel != "" {
			childRel = rel + "/" + name
		}
		if len(ign) > 0 && ign.ignored(childRel, name, mode.IsDir()) {
			continue
		}
		e := walkEntry{rel: childRel, abs: abs + string(filepath.Separator) + name, name: name, mode: mode, depth: depth}
		if wk.hidden != nil && wk.hidden(e.abs) {
			continue
		}
		descend, err := wk.visit(&e)
		if err != nil {
			return err
		}
		if descend && mode.IsDir() {
			if err := wk.dir(ctx, childRel, e.abs, depth+1, ign); err != nil {
				return err
			}
		}
	}
	return nil
}

// readDirSorted lists a folder in walk order: by name, folders compared as if
// their name ended with "/", so that a depth-first walk visits full paths in
// string order.
func readDirSorted(abs string) ([]fs.DirEntry, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return nil, err
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int {
		return cmpWalkNames(a.Name(), a.IsDir(), b.Name(), b.IsDir())
	})
	return entries, nil
}

// cmpWalkNames compares a+"/" (if aDir) with b+"/" (if bDir) without building them.
func cmpWalkNames(a string, aDir bool, b string, bDir bool) int {
	n := min(len(a), len(b))
	if a[:n] != b[:n] {
		if a[:n] < b[:n] {
			return -1
		}
		return 1
	}
	switch {
	case len(a) == len(b): // same name: only the "/" can differ
		switch {
		case aDir == bDir:
			return 0
		case aDir:
			return 1
		}
		return -1
	case len(a) < len(b):
		if !aDir || '/' < b[n] {
			return -1
		}
		return 1
	default:
		if !bDir || '/' < a[n] {
			return 1
		}
		return -1
	}
}

// displayRel shows the workspace folder itself as ".".
func displayRel(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}
