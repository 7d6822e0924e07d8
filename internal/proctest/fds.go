package proctest

import (
	"fmt"
	"os"
	"path/filepath"
)

// OpenFiles counts this process's descriptors open on files whose path
// match accepts (from /proc/self/fd: an error where there is none, for the
// caller to skip on).
func OpenFiles(match func(path string) bool) (int, error) {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return 0, fmt.Errorf("list open descriptors: %w", err)
	}
	n := 0
	for _, e := range entries {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && match(target) {
			n++
		}
	}
	return n, nil
}
