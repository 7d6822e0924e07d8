//go:build unix

package sandbox

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The commands' private TMPDIRs stand in one folder per agentls process,
// $TMPDIR/agentls-tmp-<random>, whose lock file the process holds locked
// (flock) as long as it runs; a command's own TMPDIR is removed when it
// ends (Cleanup). A process killed with SIGKILL removes nothing, but the
// kernel lets its lock go: the next agentls process to make its folder
// removes every such folder whose lock it can take (sweepStaleTemp).

// tempRootPrefix names the per-process folders in $TMPDIR.
const tempRootPrefix = "agentls-tmp-"

// tempLockName is the lock file in a per-process folder.
const tempLockName = "lock"

// lockless is how old a per-process folder without its lock file must be
// before a sweep takes it as left behind: the lock file is made right
// after the folder, by a rename, so only a process killed between the two
// leaves one without.
const lockless = 10 * time.Minute

// tempRoot is this process's folder and its held lock.
var tempRoot struct {
	once sync.Once
	dir  string
	lock *os.File // open, and locked, for the process's life
	err  error
}

// privateTempRoot is the folder this process makes its commands' private
// TMPDIRs in; the first call makes it, then removes the folders of agentls
// processes that are gone.
func privateTempRoot() (string, error) {
	tempRoot.once.Do(func() {
		tempRoot.dir, tempRoot.lock, tempRoot.err = makeTempRoot(os.TempDir())
		if tempRoot.err == nil {
			sweepStaleTemp(os.TempDir(), tempRoot.dir, time.Now())
		}
	})
	return tempRoot.dir, tempRoot.err
}

// makeTempRoot makes a per-process folder in parent, with its lock file
// locked: written under another name, locked, then renamed into place, so
// that no sweep ever finds the lock file unlocked while its process lives.
// The folder can be passed through (0711): a command run as another user
// (Policy.RunAs) reaches its own TMPDIR in it, and lists nothing.
func makeTempRoot(parent string) (string, *os.File, error) {
	dir, err := os.MkdirTemp(parent, tempRootPrefix)
	if err != nil {
		return "", nil, fmt.Errorf("sandbox: private TMPDIR folder: %w", err)
	}
	fail := func(err error) (string, *os.File, error) {
		_ = os.RemoveAll(dir)
		return "", nil, fmt.Errorf("sandbox: private TMPDIR folder: %w", err)
	}
	if err := os.Chmod(dir, 0o711); err != nil {
		return fail(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, tempLockName+".new"), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fail(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return fail(fmt.Errorf("lock: %w", err))
	}
	if err := os.Rename(f.Name(), filepath.Join(dir, tempLockName)); err != nil {
		f.Close()
		return fail(err)
	}
	return dir, f, nil
}

// sweepStaleTemp removes the per-process folders in parent but own whose
// process is gone: a folder of this user (not a link) whose lock file it
// can lock, or that has had no lock file for longer than lockless. It
// holds the lock while it removes, so two sweeps never remove one folder
// twice, and it logs what it removed or could not.
func sweepStaleTemp(parent, own string, now time.Time) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		slog.Warn("sandbox: looking for private TMPDIRs left behind", "dir", parent, "err", err)
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), tempRootPrefix) || !e.IsDir() {
			continue // a link is not a folder here: never followed
		}
		dir := filepath.Join(parent, e.Name())
		if dir == own {
			continue
		}
		if stale, release := staleTempRoot(dir, now); stale {
			if err := os.RemoveAll(dir); err != nil {
				slog.Warn("sandbox: a private TMPDIR left behind stays", "dir", dir, "err", err)
			} else {
				slog.Info("sandbox: removed the private TMPDIRs of an agentls process that is gone", "dir", dir)
			}
			release()
		}
	}
}

// staleTempRoot reports whether dir is the folder of a process that is
// gone, and if so returns what lets its lock go once it is removed.
func staleTempRoot(dir string, now time.Time) (bool, func()) {
	info, err := os.Lstat(dir)
	if err != nil || !info.IsDir() || !ownedByUs(info) {
		return false, nil
	}
	f, err := os.OpenFile(filepath.Join(dir, tempLockName), os.O_RDWR|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, os.ErrNotExist) {
		return now.Sub(info.ModTime()) > lockless, func() {}
	}
	if err != nil {
		return false, nil
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close() // held: its process runs
		return false, nil
	}
	return true, func() { f.Close() }
}

// ownedByUs reports whether info is of a file this process's user owns.
func ownedByUs(info os.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
