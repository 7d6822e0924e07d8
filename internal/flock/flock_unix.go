//go:build unix

package flock

import (
	"errors"
	"os"
	"syscall"
)

// Try takes f's lock, exclusive or shared, without waiting; ok is false
// when another open file (another process, or another open of the same file
// in this one) holds a lock that conflicts.
func Try(f *os.File, exclusive bool) (ok bool, err error) {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	err = syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

// Unlock gives up f's lock before f is closed. Closing alone is not
// enough: a flock belongs to the open file description, which every copy of
// the descriptor shares, and a child process that this process forks (the
// run tool, a language server, git, the sandbox probe, from any goroutine)
// holds such a copy from the fork until its exec closes it. A close while a
// child is in that window would leave the lock held until the child execs;
// LOCK_UN releases it at once, whatever copies exist.
func Unlock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
