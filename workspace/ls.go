package workspace

import (
	"context"
	"fmt"
	"os"
)

// Entry is one item of a listing.
type Entry struct {
	// Path is workspace-relative, with forward slashes.
	Path string
	// IsDir reports a folder (a symlink reports what it points to; it is never
	// descended into).
	IsDir bool
	// Size is the size of a file in bytes (0 for folders).
	Size int64
}

// List lists dir down to depth levels (0 means 1: its entries only), sorted by
// path, skipping .git, .agentls and what .gitignore excludes.
func (w *Workspace) List(dir Path, depth int) ([]Entry, error) {
	if depth < 0 {
		return nil, fmt.Errorf("ls %s: depth must not be negative", displayRel(dir.Rel))
	}
	if depth == 0 {
		depth = 1
	}
	if err := requireDir(dir); err != nil {
		return nil, fmt.Errorf("ls: %w", err)
	}
	var out []Entry
	wk := walker{folder: dir.Folder, hidden: w.hiddenFromWalks, visit: func(e *walkEntry) (bool, error) {
		en := Entry{Path: e.rel, IsDir: e.isDir()}
		if !en.IsDir {
			if fi, err := os.Stat(e.abs); err == nil {
				en.IsDir = fi.IsDir()
				if !en.IsDir {
					en.Size = fi.Size()
				}
			}
		}
		out = append(out, en)
		return e.depth < depth, nil
	}}
	if err := wk.run(context.Background(), relOrEmpty(dir.Rel)); err != nil {
		return nil, fmt.Errorf("ls %s: %w", displayRel(dir.Rel), err)
	}
	return out, nil
}

// requireDir checks that p is an existing folder.
func requireDir(p Path) error {
	fi, err := os.Stat(p.Abs)
	if err != nil {
		if os.IsNotExist(err) {
			return fmt.Errorf("%s does not exist: %w", displayRel(p.Rel), os.ErrNotExist)
		}
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is a file, not a folder", p.Rel)
	}
	return nil
}

// relOrEmpty maps the folder itself (".") to "".
func relOrEmpty(rel string) string {
	if rel == "." {
		return ""
	}
	return rel
}
