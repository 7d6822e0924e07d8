//go:build !linux

package agent

import "io/fs"

// sysDirStamp is a folder's stamp without a change time: a `touch -d` can
// set its modification time back, so no listing is kept (settled is
// false) and every look-up lists every folder, as the walk did before the
// index.
func sysDirStamp(fi fs.FileInfo) dirStamp {
	return dirStamp{mtime: fi.ModTime().UnixNano()}
}
