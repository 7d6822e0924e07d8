package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// renameIn is (*os.Root).Rename; tests replace it to make the last step of
// an atomic write on disk fail, or stop there.
var renameIn = func(r *os.Root, from, to string) error { return r.Rename(from, to) }

// pinFolder opens dir, a folder on a path the guard judged by its real
// name, and checks that dir still leads to that very folder with no
// symbolic link on the way. Every later step goes through the folder
// opened: a link swapped in on the way after this (a process racing the
// write) changes nothing, and one swapped in before it fails the change.
func pinFolder(dir string) (*os.Root, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	real, err := Canonical(dir)
	if err == nil && real != dir {
		err = fmt.Errorf("the folder %s changed since it was checked: it leads to %s through a symbolic link now", dir, real)
	}
	if err == nil {
		var here, there fs.FileInfo
		if here, err = r.Stat("."); err == nil {
			if there, err = os.Lstat(dir); err == nil && !os.SameFile(here, there) {
				err = fmt.Errorf("the folder %s changed since it was checked", dir)
			}
		}
	}
	if err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// mkdirPinned creates the folder abs and its missing parents below the
// deepest one that exists, which is pinned (pinFolder) first.
func mkdirPinned(abs string) error {
	have := abs
	for {
		fi, err := os.Lstat(have)
		if err == nil {
			switch {
			case have != abs:
			case fi.IsDir():
				return nil
			case fi.Mode()&fs.ModeSymlink != 0:
				return fmt.Errorf("the folder %s changed since it was checked: it is a symbolic link now", abs)
			default:
				return fmt.Errorf("%s exists and is not a folder", abs)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		up := filepath.Dir(have)
		if up == have {
			return err
		}
		have = up
	}
	r, err := pinFolder(have)
	if err != nil {
		return err
	}
	defer r.Close()
	rel, err := filepath.Rel(have, abs)
	if err != nil {
		return err
	}
	return r.MkdirAll(rel, 0o755)
}

// writeIn replaces the file name of the pinned folder r with data
// (writeAtomic's steps, inside r): a temporary file, written, given perm,
// synced, then renamed over name, and the folder synced.
func writeIn(r *os.Root, name string, data []byte, perm fs.FileMode) (err error) {
	var tmp string
	var f *os.File
	for range 100 {
		// The pid in the name lets SweepTemps tell a dead writer's leftover.
		tmp = "." + name + ".agentls-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(uint64(rand.Uint32()), 10) + ".tmp"
		f, err = r.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return err
	}
	closed := false
	defer func() {
		if err != nil {
			if !closed {
				f.Close()
			}
			r.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = fsync(f); err != nil {
		return err
	}
	closed = true
	if err = f.Close(); err != nil {
		return err
	}
	if err = renameIn(r, tmp, name); err != nil {
		return err
	}
	if d, derr := r.Open("."); derr == nil {
		_ = fsync(d) // not every platform or file system syncs folders
		d.Close()
	}
	return nil
}
