package sandbox

import "golang.org/x/sys/unix"

// nativeChmod is chmod(2)'s number: x86-64 has one (the generic table does not).
var nativeChmod = map[uint32]procCall{unix.SYS_CHMOD: chmodCall}
