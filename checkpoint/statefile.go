package checkpoint

import (
	"fmt"
	"io"
	"os"
)

// maxStateFileBytes bounds a manifest, a session's known.json or its
// journal: far above what a real workspace writes.
const maxStateFileBytes = 64 << 20

// readStateFile reads one of the store's own files (an object, a
// manifest, known.json, the journal, the digest cache) of at most max
// bytes, and returns its information. The store lives in the workspace, so
// a repository can ship any of them: only a regular file is read — not a
// symbolic link (to anywhere), and never a FIFO or a device, whose opening
// or reading could block the turn or the rewind.
func readStateFile(path string, max int64) ([]byte, os.FileInfo, error) {
	if fi, err := os.Lstat(path); err != nil {
		return nil, nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s: not a regular file", path)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openNoFollow, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > max {
		return nil, nil, fmt.Errorf("%s: not a regular file of at most %d bytes", path, max)
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
