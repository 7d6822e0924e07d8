package checkpoint

import (
	"io/fs"
	"syscall"
)

// sysStamp adds the inode, the device and the change time of a Linux stat
// (the conversions are for the architectures whose fields are 32 bits).
func sysStamp(fi fs.FileInfo, st *stamp) {
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.ino, st.dev = uint64(sys.Ino), uint64(sys.Dev)
		st.ctime = int64(sys.Ctim.Sec)*1e9 + int64(sys.Ctim.Nsec)
	}
}
