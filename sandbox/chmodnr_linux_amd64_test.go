package sandbox

import "golang.org/x/sys/unix"

// nativeChmod are chmod(2)'s, chown(2)'s and lchown(2)'s numbers: x86-64
// has them (the generic table does not).
var nativeChmod = map[uint32]procCall{unix.SYS_CHMOD: chmodCall, unix.SYS_CHOWN: chownCall, unix.SYS_LCHOWN: lchownCall}
