package sessionstore

import (
	"fmt"
	"io"
	"os"
)

// openState opens one of the store's files (a .chat, .meta, .approved or
// .lock file) with flag. The store lives in the workspace, so a
// repository can ship any of them: only a regular file is opened — never
// through a symbolic link (O_NOFOLLOW where the system has it, and the
// link checked first), never a FIFO or a device, whose opening or reading
// would block a listing of the sessions or the guard's plan-lock check.
// With os.O_CREATE a missing file is created.
func openState(path string, flag int, perm os.FileMode) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	f, err := os.OpenFile(path, flag|openNoFollow, perm)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s: not a regular file", path)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// readState is os.ReadFile of one of the store's files, through openState.
func readState(path string) ([]byte, error) {
	f, err := openState(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
