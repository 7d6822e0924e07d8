package agent

import (
	"io/fs"
	"syscall"
)

// sysDirStamp is a folder's stamp from its Lstat: the kernel sets the
// change time at every entry made, removed or renamed in it, and at a
// `touch -d` of it, and no one can set it back.
func sysDirStamp(fi fs.FileInfo) dirStamp {
	st := dirStamp{mtime: fi.ModTime().UnixNano()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.ino, st.dev = uint64(sys.Ino), uint64(sys.Dev)
		st.ctime = int64(sys.Ctim.Sec)*1e9 + int64(sys.Ctim.Nsec)
	}
	return st
}
