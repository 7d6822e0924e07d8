//go:build unix

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/agentls/agentls/internal/flock"
)

// The commands' private TMPDIRs stand in one folder per agentls process,
// $TMPDIR/agentls-tmp-<random>, which the process holds locked (flock on
// the folder itself) as long as it runs; a command's own TMPDIR is removed
// when it ends (Cleanup). A process killed with SIGKILL removes nothing,
// but the kernel lets its lock go: the next agentls process removes every
// such folder it can lock (sweepStaleTemp), once when it starts (`serve`
// and `acp`: SweepStaleTemp, which makes no folder) and again when it
// makes its own folder (a killed process's folder may have been too young
// at the start). A locked folder is also one systemd-tmpfiles does not
// clean, however long the process stays idle.

// tempRootPrefix names the per-process folders in $TMPDIR.
const tempRootPrefix = "agentls-tmp-"

// unlockedGrace is how old an unlocked per-process folder must be before a
// sweep takes it as left behind: a process locks its folder right after
// making it, so only a folder in that moment, or a killed process's, is
// unlocked.
const unlockedGrace = time.Minute

// tempRoots holds one process's folder and the open descriptor that holds
// its lock.
type tempRoots struct {
	mu    sync.Mutex
	dir   string
	lock  *os.File // open, and locked, while dir is this process's folder
	swept bool
}

// tempRoot is this process's.
var tempRoot tempRoots

// privateTempRoot is the folder this process makes its commands' private
// TMPDIRs in (tempRoots.in the system's temporary folder).
func privateTempRoot() (string, error) { return tempRoot.in(os.TempDir()) }

// in is the process's folder in parent. The first call makes it and then
// removes the folders of agentls processes that are gone (outside the
// lock: other commands need not wait for that); a folder removed since (by
// the user, a cleaner that ignores locks) is made anew.
func (r *tempRoots) in(parent string) (string, error) {
	dir, sweep, err := r.current(parent)
	if sweep {
		sweepStaleTemp(context.Background(), parent, dir, time.Now())
	}
	return dir, err
}

// SweepStaleTemp removes the per-process folders that agentls processes
// now gone left in the system's temporary folder (sweepStaleTemp), without
// making this process's own; it stops between two folders when ctx is
// done. It never removes a folder a running process holds locked (this
// one's included), another user's, or anything through a link.
func SweepStaleTemp(ctx context.Context) { tempRoot.sweep(ctx, os.TempDir()) }

// sweep removes the folders in parent of processes that are gone, but the
// process's own, which it does not make.
func (r *tempRoots) sweep(ctx context.Context, parent string) {
	r.mu.Lock()
	own := r.dir
	r.mu.Unlock()
	// A folder this process makes from now on is locked by it: passed by.
	sweepStaleTemp(ctx, parent, own, time.Now())
}

// current is the process's folder in parent, made if there is none, and
// whether this call is the first to make one (and so is to sweep).
func (r *tempRoots) current(parent string) (dir string, sweep bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dir != "" {
		if _, err := os.Lstat(r.dir); !errors.Is(err, fs.ErrNotExist) {
			return r.dir, false, nil
		}
		r.lock.Close()
		r.dir, r.lock = "", nil
	}
	dir, lock, err := makeTempRoot(parent)
	if err != nil {
		return "", false, err
	}
	r.dir, r.lock = dir, lock
	sweep, r.swept = !r.swept, true
	return dir, sweep, nil
}

// makeTempRoot makes a per-process folder in parent and locks it. The
// folder can be passed through (0711): a command run as another user
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
	f, err := os.Open(dir)
	if err != nil {
		return fail(err)
	}
	if ok, err := flock.Try(f, true); !ok {
		f.Close()
		if err == nil {
			err = errors.New("held by another process")
		}
		return fail(fmt.Errorf("lock: %w", err))
	}
	return dir, f, nil
}

// sweepStaleTemp removes the per-process folders in parent but own whose
// process is gone: a folder of this user (not a link) older than
// unlockedGrace that it can lock. It holds the lock while it removes, so
// two sweeps never remove one folder twice, and it logs what it removed or
// could not. It stops before the next folder once ctx is done.
func sweepStaleTemp(ctx context.Context, parent, own string, now time.Time) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		slog.Warn("sandbox: looking for private TMPDIRs left behind", "dir", parent, "err", err)
		return
	}
	for _, e := range entries {
		if ctx.Err() != nil {
			return
		}
		if !strings.HasPrefix(e.Name(), tempRootPrefix) || !e.IsDir() {
			continue // a link is not a folder here: never followed
		}
		dir := filepath.Join(parent, e.Name())
		if dir == own {
			continue
		}
		if lock := lockStaleTemp(dir, now); lock != nil {
			if hook := staleTempHook.Load(); hook != nil {
				(*hook)(dir)
			}
			if err := os.RemoveAll(dir); err != nil {
				slog.Warn("sandbox: a private TMPDIR left behind stays", "dir", dir, "err", err)
			} else {
				slog.Info("sandbox: removed the private TMPDIRs of an agentls process that is gone", "dir", dir)
			}
			lock.Close()
		}
	}
}

// lockStaleTemp locks dir and returns the descriptor holding the lock when
// dir is the folder of a process that is gone; nil when it is not (or is
// not such a folder).
func lockStaleTemp(dir string, now time.Time) *os.File {
	info, err := os.Lstat(dir)
	if err != nil || !info.IsDir() || !ownedByUs(info) || now.Sub(info.ModTime()) < unlockedGrace {
		return nil
	}
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_DIRECTORY, 0)
	if err != nil {
		return nil
	}
	if ok, _ := flock.Try(f, true); !ok {
		f.Close() // held: its process runs
		return nil
	}
	return f
}

// ownedByUs reports whether info is of a file this process's user owns.
func ownedByUs(info os.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
