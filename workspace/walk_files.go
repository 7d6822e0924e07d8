package workspace

import (
	"context"
	"io/fs"
)

// WalkedFile is a regular file met by WalkFiles.
type WalkedFile struct {
	// Folder is the workspace folder holding it; Rel its path relative to
	// Folder (slash separated); Abs its absolute path.
	Folder, Rel, Abs string
}

// WalkFiles calls fn for every regular file of every workspace folder, in
// walk order, skipping what listings skip: `.git`, `.agentls`, what
// `.gitignore` excludes and what HideFromWalks hides. Symlinks are neither
// reported nor followed. An error from fn stops the walk.
func (w *Workspace) WalkFiles(ctx context.Context, fn func(f WalkedFile) error) error {
	for _, folder := range w.folders {
		wk := walker{folder: folder, hidden: w.hiddenFromWalks, visit: func(e *walkEntry) (bool, error) {
			if e.isDir() {
				return true, nil
			}
			if e.mode&fs.ModeType != 0 {
				return false, nil // symlinks, sockets, devices
			}
			return false, fn(WalkedFile{Folder: folder, Rel: e.rel, Abs: e.abs})
		}}
		if err := wk.run(ctx, ""); err != nil {
			return err
		}
	}
	return nil
}

// WriteFileAtomic replaces path with data (a temporary file in the same
// folder, synced, then renamed over it): readers see the old content or the
// new, never a part.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	return writeAtomic(path, data, perm)
}

// ReplaceFile is WriteFileAtomic without syncing to the disk: readers see
// the old content or the new, a crash of agentls never leaves a part, but a
// power failure may lose the new content. For files that cost little to
// lose and are written often (the checkpoint store's, once per turn).
func ReplaceFile(path string, data []byte, perm fs.FileMode) error {
	return replaceFile(path, data, perm, false)
}
