//go:build unix

package sessionstore

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock (flock) on f without waiting;
// errLocked means another open file (another process) holds it.
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}

// unlockFile gives up f's lock before f is closed. Closing alone is not
// enough: a flock belongs to the open file description, which every copy of
// the descriptor shares, and a child process that this process forks (the
// run tool, a language server, git, the sandbox probe, from any goroutine)
// holds such a copy from the fork until its exec closes it. A close while a
// child is in that window would leave the session locked until the child
// execs; LOCK_UN releases it at once, whatever copies exist.
func unlockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
