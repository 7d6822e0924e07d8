//go:build unix

package sessionstore

import "syscall"

// openNoFollow makes opening a store file fail on a symbolic link, and
// not block on a FIFO (openState then refuses it).
const openNoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
