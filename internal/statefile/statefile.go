// Package statefile opens agentls's own state files (sessions, locks,
// checkpoints, the digest cache, .agentls/.gitignore). They live in the
// workspace, under .agentls/, so a repository can ship any of them: only
// a regular file is opened — never through a symbolic link (O_NOFOLLOW
// where the system has it, and the name checked first), never a FIFO or a
// device, whose opening or reading would block the turn, a rewind, the
// session history or the guard's plan-lock check. ReadLinked reads by the
// same rules, through a link, the files a user may link (configuration).
package statefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Open opens the state file path with flag (os.O_RDONLY, os.O_RDWR,
// os.O_APPEND, …) as a regular file; with os.O_CREATE a missing file is
// created, never through a link.
func Open(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, _, err := open(path, flag, perm)
	return f, err
}

// OpenInfo is Open, with the opened file's information (its fstat just
// after the open).
func OpenInfo(path string, flag int, perm os.FileMode) (*os.File, os.FileInfo, error) {
	return open(path, flag, perm)
}

// open is Open, with the opened file's information.
func open(path string, flag int, perm os.FileMode) (*os.File, os.FileInfo, error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s: not a regular file", path)
	}
	f, err := os.OpenFile(path, flag|openNoFollow, perm)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s: not a regular file", path)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// ReadAll is os.ReadFile of the state file path, through Open.
func ReadAll(path string) ([]byte, error) {
	data, _, err := Read(path, -1)
	return data, err
}

// Read reads the state file path, a regular file of at most max bytes
// (max < 0: no bound), and returns its information.
func Read(path string, max int64) ([]byte, os.FileInfo, error) {
	f, fi, err := open(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	data, err := readBounded(f, fi, path, max)
	if err != nil {
		return nil, nil, err
	}
	return data, fi, nil
}

// ReadLinked reads a file the user may keep behind a symbolic link (a
// configuration file in a dotfiles repository): a link is followed, but
// only to a regular file of at most max bytes, and opening never blocks (a
// link to a FIFO or /dev/stdin is refused). The error wraps
// fs.ErrNotExist only when there is nothing at path at all: a link that
// leads nowhere is an error of its own, so that a caller never takes it
// for "no file".
func ReadLinked(path string, max int64) ([]byte, error) {
	if _, err := os.Lstat(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openNonBlock, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s is a symbolic link to a file that does not exist", path)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s)", path, fi.Mode().Type())
	}
	return readBounded(f, fi, path, max)
}

// readBounded reads the open regular file f (fi its information) of at
// most max bytes (max < 0: no bound).
func readBounded(f *os.File, fi os.FileInfo, path string, max int64) ([]byte, error) {
	if max < 0 {
		return io.ReadAll(f)
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("%s: more than %d bytes", path, max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: more than %d bytes", path, max)
	}
	return data, nil
}
