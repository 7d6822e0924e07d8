package workspace

import (
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
func (w *Workspace) ApplyToDisk(c Change) error {
	switch c.Kind {
	case ChangeEdit:
		if len(c.Edits) == 0 && c.After == c.Before {
			now := time.Now()
			if err := os.Chtimes(c.Path.Abs, now, now); err != nil {
				return fmt.Errorf("touch %s: %w", c.Path.Rel, err)
			}
			return nil
		}
		fi, err := os.Stat(c.Path.Abs)
		if err != nil {
			return fmt.Errorf("write %s: %w", c.Path.Rel, err)
		}
		if fi.IsDir() {
			return fmt.Errorf("write %s: it is a folder", c.Path.Rel)
		}
		if err := writeAtomic(c.Path.Abs, []byte(c.After), fi.Mode().Perm()); err != nil {
			return fmt.Errorf("write %s: %w", c.Path.Rel, err)
		}
		return nil
	case ChangeCreate:
		if _, err := os.Lstat(c.Path.Abs); err == nil {
			return fmt.Errorf("create %s: it already exists", c.Path.Rel)
		}
		if err := os.MkdirAll(filepath.Dir(c.Path.Abs), 0o755); err != nil {
			return fmt.Errorf("create %s: %w", c.Path.Rel, err)
		}
		if err := writeAtomic(c.Path.Abs, []byte(c.After), 0o644); err != nil {
			return fmt.Errorf("create %s: %w", c.Path.Rel, err)
		}
		return nil
	case ChangeRename:
		if _, err := os.Lstat(c.Path.Abs); err == nil {
			return fmt.Errorf("move %s to %s: the destination already exists", c.From.Rel, c.Path.Rel)
		}
		if err := os.MkdirAll(filepath.Dir(c.Path.Abs), 0o755); err != nil {
			return fmt.Errorf("move %s to %s: %w", c.From.Rel, c.Path.Rel, err)
		}
		if err := rename(c.From.Abs, c.Path.Abs); err != nil {
			return fmt.Errorf("move %s to %s: %w", c.From.Rel, c.Path.Rel, err)
		}
		return nil
	case ChangeDelete:
		var err error
		if c.Recursive {
			if _, err = os.Lstat(c.Path.Abs); err == nil {
				err = os.RemoveAll(c.Path.Abs)
			}
		} else {
			err = os.Remove(c.Path.Abs)
		}
		if err != nil {
			return fmt.Errorf("remove %s: %w", c.Path.Rel, err)
		}
		return nil
	case ChangeMkdir:
		if err := os.MkdirAll(c.Path.Abs, 0o755); err != nil {
			return fmt.Errorf("mkdir %s: %w", c.Path.Rel, err)
		}
		return nil
	}
	return fmt.Errorf("apply %s: unknown change kind %q", c.Path.Rel, c.Kind)
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
