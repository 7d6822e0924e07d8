package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxFileBytes bounds a configuration file.
const MaxFileBytes = 1 << 20

// ReadFile reads a configuration file (the user's, --config's, a
// workspace's .agentls.yaml). A symbolic link is followed (a dotfiles
// repository's), but only to a regular file of at most MaxFileBytes: a
// link to a FIFO, /dev/stdin (the editor's JSON-RPC pipe) or /dev/zero
// neither blocks nor floods the load. The error wraps fs.ErrNotExist only
// when there is no file at path at all; a link that leads nowhere is
// unreadable (the layer fails closed, never read as "no file").
func ReadFile(path string) ([]byte, error) {
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
		return nil, fmt.Errorf("%s is not a regular file (%s)", path, fi.Mode().Type())
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%s is larger than %d KiB", path, MaxFileBytes>>10)
	}
	return data, nil
}
