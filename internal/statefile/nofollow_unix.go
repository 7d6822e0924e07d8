//go:build unix

package statefile

import "syscall"

// openNoFollow makes opening a state file fail on a symbolic link, and
// not block on a FIFO (Open then refuses it).
const openNoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// openNonBlock keeps opening a FIFO from blocking (ReadLinked then refuses
// it); links are followed.
const openNonBlock = syscall.O_NONBLOCK
