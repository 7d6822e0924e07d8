package checkpoint

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// syncDisk flushes the file system that holds the store (syncfs(2)): every
// object and manifest written without fsync reaches the disk.
func (s *Store) syncDisk() error {
	f, err := os.Open(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // no checkpoint to sync
	}
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}
