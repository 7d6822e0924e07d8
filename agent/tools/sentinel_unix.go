//go:build unix

package tools

import "syscall"

// noFollow opens a file only if it is not a symbolic link.
const noFollow = syscall.O_NOFOLLOW
