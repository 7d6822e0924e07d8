//go:build unix

package config

import "syscall"

// openNonBlock keeps opening a FIFO from blocking (ReadFile then refuses it).
const openNonBlock = syscall.O_NONBLOCK
