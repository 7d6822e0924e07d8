//go:build unix

package guard

import (
	"fmt"
	"os"
	"syscall"
)

// hardLinks counts the names of the existing file at path (not following a
// final symlink).
func hardLinks(path string) (uint64, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return 0, fmt.Errorf("stat %s: %w", path, err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, fmt.Errorf("stat %s: no link count", path)
	}
	return uint64(st.Nlink), nil
}
