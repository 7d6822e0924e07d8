package checkpoint

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/agentls/agentls/internal/flock"
	"github.com/agentls/agentls/internal/statefile"
)

// lockFile orders saves against collection across agentls processes on one
// workspace (flock on <store>/.lock; it starts with a dot: collect skips
// it). A save holds it shared from its first look at an object to its
// manifest on disk (storeAndList), and a rewind from reading its
// checkpoint until it has read the objects it restores (Hold); collect
// removes objects only while it holds it exclusively, and collects
// nothing when a save or a rewind holds it (the next prune does).
const lockFile = ".lock"

// lockWait bounds how long a save waits for a collect in another process
// to end (collect holds the lock only while it removes objects).
const lockWait = 30 * time.Second

// lockPoll is how often a waiting save tries the lock again.
const lockPoll = 10 * time.Millisecond

// openLock opens (creating) the lock file: a regular file of the store's
// own (statefile.Open follows no link). Anything else by that name (a
// repository can ship `.lock -> ~/.bashrc`, or a FIFO) is removed (a link,
// not what it leads to) and a file of the store's own takes its place, as
// the prune stamp is replaced.
func (s *Store) openLock() (*os.File, error) {
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return nil, fmt.Errorf("checkpoint lock: %w", err)
	}
	path := filepath.Join(s.dir, lockFile)
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("checkpoint lock: %s is not a file of agentls's own and cannot be removed: %w", path, err)
		}
	}
	f, err := statefile.Open(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("checkpoint lock: %w", err)
	}
	return f, nil
}

// lockShared takes the lock shared, waiting (at most lockWait, and no
// longer than ctx) while another process collects.
func (s *Store) lockShared(ctx context.Context) (unlock func(), err error) {
	f, err := s.openLock()
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(lockWait)
	for {
		ok, err := flock.Try(f, false)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("checkpoint lock: %w", err)
		}
		if ok {
			return func() { release(f) }, nil
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("checkpoint lock: another agentls process has been removing unused checkpoint objects for %s", lockWait)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("checkpoint lock: %w", ctx.Err())
		case <-time.After(lockPoll):
		}
	}
}

// Hold keeps every object of the store from being collected, by a prune
// in this process or in another agentls process on the workspace, until
// release is called: a rewind holds it from reading its checkpoint until
// it has read the objects it restores, so a checkpoint dropped meanwhile
// still has its objects. It takes the store's lock shared, as a save
// does (a collect skips its turn while it is held), waiting at most
// lockWait, and no longer than ctx, for a collect under way. Saves may
// run while it is held. Hold it only over reads and writes of files,
// never over a wait for an editor.
func (s *Store) Hold(ctx context.Context) (release func(), err error) {
	return s.lockShared(ctx)
}

// tryLockExclusive takes the lock exclusively when no save holds it; ok is
// false when one does (or the lock cannot be opened: nothing is collected).
func (s *Store) tryLockExclusive() (unlock func(), ok bool) {
	f, err := s.openLock()
	if err != nil {
		slog.Warn("checkpoint: no collection", "err", err)
		return nil, false
	}
	if ok, err := flock.Try(f, true); err != nil || !ok {
		if err != nil {
			slog.Warn("checkpoint: no collection", "err", err)
		}
		f.Close()
		return nil, false
	}
	return func() { release(f) }, true
}

// release gives up the lock (flock.Unlock: a forked child's copy of the
// descriptor must not keep it) and closes its file.
func release(f *os.File) {
	if err := flock.Unlock(f); err != nil {
		slog.Warn("checkpoint: unlock", "err", err) // the close below still releases it
	}
	f.Close()
}
