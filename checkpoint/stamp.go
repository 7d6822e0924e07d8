package checkpoint

import (
	"io/fs"
	"time"
)

// stamp is what a file's digest is cached by: its size, modification and
// change times and, where the system has them, its inode and device. The
// change time (ctime) and the inode are set by the kernel: any write,
// chmod, rename or `touch -d` changes the ctime, and no user can set it
// back, so a stamp that still matches means the content did not change
// (for a stamp taken when the file was older than racyWindow; see
// cacheable).
type stamp struct {
	size  int64
	mtime int64 // nanoseconds since the epoch
	ctime int64 // 0 where the system has none (then the stamp is not persisted)
	ino   uint64
	dev   uint64
}

// full reports whether the stamp has the kernel's fields (ctime and inode):
// only such stamps go to the persistent cache.
func (st stamp) full() bool { return st.ctime != 0 && st.ino != 0 }

// stampOf is fi's stamp (sysStamp fills in ctime, inode and device where
// the system has them).
func stampOf(fi fs.FileInfo) stamp {
	st := stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	sysStamp(fi, &st)
	return st
}

// cacheable reports whether a digest taken of a file with stamp st at time
// now may be cached: its modification and change times are more than
// racyWindow in the past. A write in the same clock tick as the hashing
// (or a later one within the file system's timestamp granularity) can keep
// both times and the size; such a file is hashed again next time (git's
// "racy" rule).
func cacheable(st stamp, now time.Time) bool {
	limit := now.Add(-racyWindow).UnixNano()
	if st.mtime >= limit {
		return false
	}
	return st.ctime == 0 || st.ctime < limit
}
