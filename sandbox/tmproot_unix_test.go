//go:build unix

package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// TestSweepStaleTemp: a sweep removes the per-process folders whose
// process is gone (unlocked, older than unlockedGrace) and keeps those of
// running processes, one being made, its own, links, other users' folders
// and whatever else stands in the temporary folder.
func TestSweepStaleTemp(t *testing.T) {
	parent := t.TempDir()
	own, ownLock, err := makeTempRoot(parent)
	if err != nil {
		t.Fatal(err)
	}
	defer ownLock.Close()
	old := time.Now().Add(-unlockedGrace - time.Minute)
	age := func(t *testing.T, dir string) {
		if err := os.Chtimes(dir, old, old); err != nil {
			t.Fatal(err)
		}
	}
	// made is a per-process folder renamed to dir, its lock held (running)
	// or let go (gone), dated before the grace.
	made := func(running bool) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			d, f, err := makeTempRoot(parent)
			if err != nil {
				t.Fatal(err)
			}
			if running {
				t.Cleanup(func() { f.Close() })
			} else {
				f.Close()
			}
			writeTestFile(t, filepath.Join(d, "agentls-run-1", "go-build1", "x.o"), "x")
			if err := os.Rename(d, dir); err != nil {
				t.Fatal(err)
			}
			age(t, dir)
		}
	}
	for _, c := range []struct {
		name string
		make func(t *testing.T, dir string)
		kept bool
	}{
		{"agentls-tmp-gone", made(false), false},
		{"agentls-tmp-running", made(true), true},
		{"agentls-tmp-being-made", func(t *testing.T, dir string) { mkdir(t, dir) }, true},
		{"agentls-tmp-link", func(t *testing.T, dir string) {
			target := filepath.Join(t.TempDir(), "target")
			made(false)(t, target)
			if err := os.Symlink(target, dir); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"agentls-tmp-another-user", func(t *testing.T, dir string) {
			made(false)(t, dir)
			if os.Getuid() != 0 {
				t.Skip("needs root to give a folder to another user")
			}
			if err := os.Chown(dir, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"agentls-run-abc", func(t *testing.T, dir string) { mkdir(t, dir); age(t, dir) }, true},
		{"other", made(false), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(parent, c.name)
			c.make(t, dir)
			// The hook is told of what goes, while it is whole.
			var told []string
			SetStaleTempHook(func(d string) {
				if _, err := os.Stat(filepath.Join(d, "agentls-run-1", "go-build1", "x.o")); err != nil {
					t.Errorf("the hook got %s no longer whole: %v", d, err)
				}
				told = append(told, d)
			})
			defer SetStaleTempHook(nil)
			sweepStaleTemp(context.Background(), parent, own, time.Now())
			_, err := os.Lstat(dir)
			if kept := err == nil; kept != c.kept {
				t.Errorf("%s: kept %v, want %v (%v)", c.name, kept, c.kept, err)
			}
			if slices.Contains(told, dir) == c.kept { // earlier rows' folders may go now too
				t.Errorf("the hook was told of %v; %s kept: %v", told, c.name, c.kept)
			}
			if _, err := os.Stat(own); err != nil {
				t.Errorf("the sweep removed its own process's folder: %v", err)
			}
		})
	}
}

// TestTempRootLocked: the process's folder is locked while it is the
// process's (another descriptor cannot lock it: a sweep, or
// systemd-tmpfiles, passes it by) and lets another user pass through to a
// command's TMPDIR, but not list it; removed, it is made anew, and the
// first folder's lock goes.
func TestTempRootLocked(t *testing.T) {
	parent := t.TempDir()
	var r tempRoots
	dir, err := r.in(parent)
	if err != nil {
		t.Fatal(err)
	}
	locked := func(dir string) bool {
		f, err := os.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil
	}
	if !locked(dir) {
		t.Error("the folder is not locked")
	}
	if info, err := os.Stat(dir); err != nil || info.Mode().Perm() != 0o711 {
		t.Errorf("folder mode %v (%v), want 0711", info.Mode().Perm(), err)
	}
	if again, err := r.in(parent); err != nil || again != dir {
		t.Errorf("a second call: %q %v, want %q", again, err, dir)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	anew, err := r.in(parent)
	if err != nil || anew == dir {
		t.Fatalf("after the folder was removed: %q %v, want a new folder", anew, err)
	}
	if !locked(anew) {
		t.Error("the new folder is not locked")
	}
	r.lock.Close()
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
}

func writeTestFile(t *testing.T, path, text string) {
	t.Helper()
	mkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestSweepAtStart: the sweep at start-up (SweepStaleTemp) removes a gone
// process's folder without making one of its own, passes by the folder
// this process holds, and removes nothing once its context is done.
func TestSweepAtStart(t *testing.T) {
	for _, c := range []struct {
		name      string
		hasOwn    bool // the process made its folder before the sweep
		cancelled bool
		goneKept  bool
	}{
		{"fresh process", false, false, false},
		{"with its own folder", true, false, false},
		{"cancelled", false, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			parent := t.TempDir()
			gone, lock, err := makeTempRoot(parent)
			if err != nil {
				t.Fatal(err)
			}
			lock.Close()
			old := time.Now().Add(-unlockedGrace - time.Minute)
			if err := os.Chtimes(gone, old, old); err != nil {
				t.Fatal(err)
			}
			var r tempRoots
			own := ""
			if c.hasOwn {
				if own, err = r.in(t.TempDir()); err != nil { // elsewhere: not swept with gone
					t.Fatal(err)
				}
				if err := os.Rename(own, filepath.Join(parent, filepath.Base(own))); err != nil {
					t.Fatal(err)
				}
				own = filepath.Join(parent, filepath.Base(own))
				r.dir = own
				if err := os.Chtimes(own, old, old); err != nil {
					t.Fatal(err)
				}
				defer r.lock.Close()
			}
			ctx, cancel := context.WithCancel(context.Background())
			if c.cancelled {
				cancel()
			}
			defer cancel()
			r.sweep(ctx, parent)
			if _, err := os.Lstat(gone); (err == nil) != c.goneKept {
				t.Errorf("the gone process's folder: kept %v, want %v (%v)", err == nil, c.goneKept, err)
			}
			entries, err := os.ReadDir(parent)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range entries {
				if filepath.Join(parent, e.Name()) != gone {
					names = append(names, e.Name())
				}
			}
			var want []string
			if own != "" {
				want = []string{filepath.Base(own)}
			}
			if len(names) != len(want) || len(want) == 1 && names[0] != want[0] {
				t.Errorf("the sweep left %v besides the gone folder, want %v (it makes no folder, keeps its own)", names, want)
			}
			if c.hasOwn && r.dir != own {
				t.Errorf("the process's folder is now %q, want %q", r.dir, own)
			}
			if !c.hasOwn && r.dir != "" {
				t.Errorf("the sweep made the process's folder %q", r.dir)
			}
		})
	}
}
