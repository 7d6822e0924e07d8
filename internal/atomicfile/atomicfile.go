// Package atomicfile writes a file so that readers see its old content or
// its new, never a part: a temporary file beside it, synced, then renamed
// over it. agentls's own state (trust records, plan locks, credentials)
// goes through it.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write replaces path with data, with permissions perm. On failure the
// temporary file is removed and path is untouched.
func Write(path string, data []byte, perm os.FileMode) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil { // the rename made durable where the platform can
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}
