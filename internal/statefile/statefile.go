// Package statefile opens agentls's own state files (sessions, locks,
// checkpoints, the digest cache, .agentls/.gitignore). They live in the
// workspace, under .agentls/, so a repository can ship any of them: only
// a regular file is opened — never through a symbolic link (O_NOFOLLOW
// where the system has it, and the name checked first), never a FIFO or a
// device, whose opening or reading would block the turn, a rewind, the
// session history or the guard's plan-lock check.
package statefile

import (
	"fmt"
	"io"
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
	if max < 0 {
		data, err := io.ReadAll(f)
		return data, fi, err
	}
	if fi.Size() > max {
		return nil, nil, fmt.Errorf("%s: more than %d bytes", path, max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, nil, err
	}
	if int64(len(data)) > max {
		return nil, nil, fmt.Errorf("%s: more than %d bytes", path, max)
	}
	return data, fi, nil
}
