package tools

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
)

// restoreFailure is a change that could not be undone, and why.
type restoreFailure struct {
	rel, why string
}

// restoreChanges undoes changes (diffSnaps): it removes what the command
// created, deepest first, then puts back what it changed or removed from
// the snapshot before, folders first. Every step goes through the
// workspace folder opened as an os.Root (nothing outside it can be
// reached) and only along real folders (os.Lstat of each folder on the
// way: never through a symbolic link, which is reported instead). It
// returns what it could not undo.
func restoreChanges(changes []autoRunChange) []restoreFailure {
	roots := map[string]*os.Root{}
	defer func() {
		for _, r := range roots {
			r.Close()
		}
	}()
	root := func(folder string) (*os.Root, error) {
		if r, ok := roots[folder]; ok {
			return r, nil
		}
		r, err := os.OpenRoot(folder)
		if err != nil {
			return nil, fmt.Errorf("open the workspace folder: %w", err)
		}
		roots[folder] = r
		return r, nil
	}
	var failed []restoreFailure
	fail := func(c autoRunChange, err error) {
		folder := (c.before == nil || c.before.mode.IsDir()) && (c.after == nil || c.after.mode.IsDir())
		gone := c.after == nil && errors.Is(err, errFolderGone) // removed with a folder that is not watched (a clean): nothing runs there
		if err != nil && !folder && !gone {                     // a folder's failure shows in what it holds
			failed = append(failed, restoreFailure{rel: c.rel, why: err.Error()})
		}
	}
	// Remove what is there now, but a file whose content is put back
	// (replaced in one rename) and a folder that stays one.
	removals := make([]autoRunChange, 0, len(changes))
	for _, c := range changes {
		if c.after != nil && !sameKind(c.before, c.after) {
			removals = append(removals, c)
		}
	}
	sort.SliceStable(removals, func(i, j int) bool { return depth(removals[i].rel) > depth(removals[j].rel) })
	for _, c := range removals {
		r, err := root(c.folder)
		if err == nil {
			err = removeEntry(r, c)
		}
		fail(c, err)
	}
	puts := make([]autoRunChange, 0, len(changes))
	for _, c := range changes {
		if c.before != nil {
			puts = append(puts, c)
		}
	}
	sort.SliceStable(puts, func(i, j int) bool { return depth(puts[i].rel) < depth(puts[j].rel) })
	for _, c := range puts {
		r, err := root(c.folder)
		if err == nil {
			err = putBack(r, c)
		}
		fail(c, err)
	}
	return failed
}

// sameKind reports whether a path stays what it was in a way restoring
// keeps: a regular file (its content is replaced) or a folder.
func sameKind(b, a *snapEntry) bool {
	return b != nil && b.mode.Type() == a.mode.Type() && (b.mode.IsRegular() || b.mode.IsDir())
}

func depth(rel string) int { return strings.Count(rel, "/") }

// errFolderGone is realFolders' error for a folder on the way that no
// longer exists.
var errFolderGone = errors.New("its folder is gone")

// realFolders fails unless every folder on the way to rel exists as a real
// folder (not a symbolic link).
func realFolders(r *os.Root, rel string) error {
	dir := path.Dir(rel)
	if dir == "." {
		return nil
	}
	parts := strings.Split(dir, "/")
	for i := range parts {
		p := strings.Join(parts[:i+1], "/")
		fi, err := r.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("%w: %s", errFolderGone, p)
		case err != nil:
			return fmt.Errorf("its folder %s: %w", p, err)
		case fi.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is now a symbolic link: not restored through it", p)
		case !fi.IsDir():
			return fmt.Errorf("%s is no longer a folder", p)
		}
	}
	return nil
}

// removeEntry removes what the command made at c (a link itself, never
// what it leads to). A folder is removed only when empty: what is left in
// it was not the command's.
func removeEntry(r *os.Root, c autoRunChange) error {
	if err := realFolders(r, c.rel); err != nil {
		return err
	}
	fi, err := r.Lstat(c.rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if c.cut && c.before == nil && fi.IsDir() {
		// A folder the command made and filled past what the check
		// records: all it holds is the command's.
		if err := r.RemoveAll(c.rel); err != nil {
			return fmt.Errorf("remove: %w", err)
		}
		return nil
	}
	err = r.Remove(c.rel)
	if err != nil && fi.IsDir() && c.what == "" {
		return nil // not empty: a folder the command made holds what is not ours to judge
	}
	if err != nil {
		return fmt.Errorf("remove: %w", err)
	}
	return nil
}

// putBack makes c what it was before the command.
func putBack(r *os.Root, c autoRunChange) error {
	b := c.before
	if err := realFolders(r, c.rel); err != nil {
		return err
	}
	cur, err := r.Lstat(c.rel)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if exists && cur.Mode().Type() != b.mode.Type() && !(b.capped && b.mode.IsRegular()) {
		// What the command put in its place (a folder where a file was,
		// not watched itself): removed whole, links not followed.
		if err := r.RemoveAll(c.rel); err != nil {
			return fmt.Errorf("remove what is in its place: %w", err)
		}
		exists = false
	}
	perm := b.mode & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	switch {
	case b.mode.IsDir():
		if exists {
			return nil
		}
		if err := r.Mkdir(c.rel, 0o700); err != nil {
			return fmt.Errorf("make the folder again: %w", err)
		}
		return r.Chmod(c.rel, perm)
	case b.mode&fs.ModeSymlink != 0:
		if exists {
			if err := r.Remove(c.rel); err != nil {
				return fmt.Errorf("remove the changed link: %w", err)
			}
		}
		return r.Symlink(b.link, c.rel)
	case !b.mode.IsRegular():
		return fmt.Errorf("not a regular file: not put back")
	case b.capped:
		if exists && cur.Mode().IsRegular() && cur.Size() == b.size && cur.ModTime().Equal(b.mtime) {
			return r.Chmod(c.rel, perm) // only its mode changed
		}
		return fmt.Errorf("over the snapshot's size limit: its old content cannot be put back")
	}
	return writeBack(r, c.rel, b, perm)
}

// writeBack writes a file's old content to a new file beside it and
// renames that over it (never writing through what is there).
func writeBack(r *os.Root, rel string, b *snapEntry, perm fs.FileMode) error {
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := path.Join(path.Dir(rel), ".agentls-restore-"+hex.EncodeToString(rnd[:]))
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("write: %w", err)
	}
	_, err = f.Write(b.data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = r.Chmod(tmp, perm)
	}
	if err == nil {
		err = r.Chtimes(tmp, b.mtime, b.mtime)
	}
	if err == nil {
		err = r.Rename(tmp, rel)
	}
	if err != nil {
		_ = r.Remove(tmp)
		return fmt.Errorf("write: %w", err)
	}
	return nil
}
