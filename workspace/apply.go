package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// rename is os.Rename; tests replace it to make the last step of an atomic
// write fail.
var rename = os.Rename

// ApplyToDisk makes c on disk. File contents are written atomically (a
// temporary file in the same folder, synced, then renamed over the target,
// keeping the target's mode); missing parent folders are created (the
// guard has judged each as a mkdir: Workspace.MissingParents). A touch
// (ChangeEdit without edits and After == Before) only updates the
// modification time. The overlay is left alone: the server decides what it
// holds.
//
// Every step goes through the target's folder as it was judged (its real
// path, pinned: pinFolder), never through a symbolic link swapped onto
// the path after the guard's check: such a change fails and nothing is
// written, created, touched, moved or removed where the link leads.
func (w *Workspace) ApplyToDisk(c Change) error {
	dir, name := filepath.Dir(c.Path.Abs), filepath.Base(c.Path.Abs)
	switch c.Kind {
	case ChangeEdit:
		r, err := pinFolder(dir)
		if err != nil {
			return fmt.Errorf("write %s: %w", c.Path.Rel, err)
		}
		defer r.Close()
		fi, err := r.Lstat(name)
		switch {
		case err != nil:
			return fmt.Errorf("write %s: %w", c.Path.Rel, err)
		case fi.IsDir():
			return fmt.Errorf("write %s: it is a folder", c.Path.Rel)
		case !fi.Mode().IsRegular():
			return fmt.Errorf("write %s: it is not a regular file now (a symbolic link?); it changed since it was checked", c.Path.Rel)
		}
		if len(c.Edits) == 0 && c.After == c.Before {
			now := time.Now()
			if err := r.Chtimes(name, now, now); err != nil {
				return fmt.Errorf("touch %s: %w", c.Path.Rel, err)
			}
			return nil
		}
		if err := writeIn(r, name, []byte(c.After), fi.Mode().Perm()); err != nil {
			return fmt.Errorf("write %s: %w", c.Path.Rel, err)
		}
		return nil
	case ChangeCreate:
		if err := mkdirPinned(dir); err != nil {
			return fmt.Errorf("create %s: %w", c.Path.Rel, err)
		}
		r, err := pinFolder(dir)
		if err != nil {
			return fmt.Errorf("create %s: %w", c.Path.Rel, err)
		}
		defer r.Close()
		if _, err := r.Lstat(name); err == nil {
			return fmt.Errorf("create %s: it already exists", c.Path.Rel)
		}
		if err := writeIn(r, name, []byte(c.After), 0o644); err != nil {
			return fmt.Errorf("create %s: %w", c.Path.Rel, err)
		}
		return nil
	case ChangeRename:
		if err := w.renamePinned(c); err != nil {
			return fmt.Errorf("move %s to %s: %w", c.From.Rel, c.Path.Rel, err)
		}
		return nil
	case ChangeDelete:
		r, err := pinFolder(dir)
		if err != nil {
			return fmt.Errorf("remove %s: %w", c.Path.Rel, err)
		}
		defer r.Close()
		if c.Recursive {
			if _, err = r.Lstat(name); err == nil {
				err = r.RemoveAll(name)
			}
		} else {
			err = r.Remove(name)
		}
		if err != nil {
			return fmt.Errorf("remove %s: %w", c.Path.Rel, err)
		}
		return nil
	case ChangeMkdir:
		if err := mkdirPinned(c.Path.Abs); err != nil {
			return fmt.Errorf("mkdir %s: %w", c.Path.Rel, err)
		}
		return nil
	}
	return fmt.Errorf("apply %s: unknown change kind %q", c.Path.Rel, c.Kind)
}

// renamePinned moves c.From to c.Path, both folders pinned: within one
// folder through it; between two, through the workspace folder that holds
// both (an os.Root: nothing outside it is reached), else by their paths
// once both are pinned.
func (w *Workspace) renamePinned(c Change) error {
	fromDir, toDir := filepath.Dir(c.From.Abs), filepath.Dir(c.Path.Abs)
	if err := mkdirPinned(toDir); err != nil {
		return err
	}
	rf, err := pinFolder(fromDir)
	if err != nil {
		return err
	}
	defer rf.Close()
	rt, err := pinFolder(toDir)
	if err != nil {
		return err
	}
	defer rt.Close()
	to := filepath.Base(c.Path.Abs)
	if _, err := rt.Lstat(to); err == nil {
		return errors.New("the destination already exists")
	}
	if fromDir == toDir {
		return renameIn(rf, filepath.Base(c.From.Abs), to)
	}
	if c.From.Folder != "" && c.From.Folder == c.Path.Folder {
		from, err1 := filepath.Rel(c.From.Folder, c.From.Abs)
		dest, err2 := filepath.Rel(c.Path.Folder, c.Path.Abs)
		if err1 == nil && err2 == nil {
			root, err := os.OpenRoot(c.From.Folder)
			if err != nil {
				return err
			}
			defer root.Close()
			return renameIn(root, from, dest)
		}
	}
	return rename(c.From.Abs, c.Path.Abs)
}

// writeAtomic replaces path with data: readers see the old content or the
// new, never a part. On failure the temporary file is removed and path is
// untouched.
func writeAtomic(path string, data []byte, perm fs.FileMode) error {
	return replaceFile(path, data, perm, true)
}

// WriteAtomic is writeAtomic for agentls's own files beside the workspace
// (the session store): the same temporary files, which SweepTemps knows.
func WriteAtomic(path string, data []byte, perm fs.FileMode) error {
	return writeAtomic(path, data, perm)
}

// replaceFile is writeAtomic; durable says whether the data and the rename
// are synced to the disk before it returns (without, a power failure may
// lose the new content; a crash of the process never does).
func replaceFile(path string, data []byte, perm fs.FileMode, durable bool) (err error) {
	dir := filepath.Dir(path)
	// The pid in the name lets SweepTemps tell a dead writer's leftover from
	// a live process's write in flight.
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".agentls-"+strconv.Itoa(os.Getpid())+"-*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	if durable {
		if err = fsync(tmp); err != nil {
			return err
		}
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = rename(tmp.Name(), path); err != nil {
		return err
	}
	if durable {
		syncDir(dir)
	}
	return nil
}

// fsync is (*os.File).Sync; tests count the calls through it.
var fsync = (*os.File).Sync

// syncDir makes a rename in dir durable where the platform allows it.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = fsync(d) // not every platform or file system syncs folders
	d.Close()
}
