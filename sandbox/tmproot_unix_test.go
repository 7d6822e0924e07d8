//go:build unix

package sandbox

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSweepStaleTemp: a sweep removes the per-process folders whose
// process is gone (lock free, or no lock file for longer than lockless)
// and keeps those of running processes, its own, links, other users'
// folders and whatever else stands in the temporary folder.
func TestSweepStaleTemp(t *testing.T) {
	parent := t.TempDir()
	now := time.Now()
	own, ownLock, err := makeTempRoot(parent)
	if err != nil {
		t.Fatal(err)
	}
	defer ownLock.Close()
	type folder struct {
		name string
		make func(t *testing.T, dir string)
		kept bool
	}
	gone := func(t *testing.T, dir string) { // its process ended: the lock is free
		d, f, err := makeTempRoot(parent)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		if err := os.Rename(d, dir); err != nil {
			t.Fatal(err)
		}
		writeTestFile(t, filepath.Join(dir, "agentls-run-1", "go-build1", "x.o"), "x")
	}
	for _, c := range []folder{
		{"agentls-tmp-gone", gone, false},
		{"agentls-tmp-running", func(t *testing.T, dir string) {
			d, f, err := makeTempRoot(parent)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			if err := os.Rename(d, dir); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"agentls-tmp-nolock-old", func(t *testing.T, dir string) {
			mkdir(t, dir)
			old := now.Add(-lockless - time.Minute)
			if err := os.Chtimes(dir, old, old); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"agentls-tmp-nolock-new", func(t *testing.T, dir string) { mkdir(t, dir) }, true},
		{"agentls-tmp-link", func(t *testing.T, dir string) {
			target := filepath.Join(t.TempDir(), "target")
			gone(t, target)
			if err := os.Symlink(target, dir); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"agentls-tmp-lock-is-a-link", func(t *testing.T, dir string) {
			mkdir(t, dir)
			other := filepath.Join(t.TempDir(), "lock")
			writeTestFile(t, other, "")
			if err := os.Symlink(other, filepath.Join(dir, tempLockName)); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"agentls-tmp-another-user", func(t *testing.T, dir string) {
			gone(t, dir)
			if os.Getuid() != 0 {
				t.Skip("needs root to give a folder to another user")
			}
			if err := os.Chown(dir, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"agentls-run-abc", func(t *testing.T, dir string) { mkdir(t, dir) }, true},
		{"other", gone, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(parent, c.name)
			c.make(t, dir)
			sweepStaleTemp(parent, own, now)
			_, err := os.Lstat(dir)
			if kept := err == nil; kept != c.kept {
				t.Errorf("%s: kept %v, want %v (%v)", c.name, kept, c.kept, err)
			}
			if _, err := os.Stat(filepath.Join(own, tempLockName)); err != nil {
				t.Errorf("the sweep removed its own process's folder: %v", err)
			}
		})
	}
}

// TestTempRootLockHeld: the folder's lock is held while the process runs
// (another open of the lock file cannot take it) and the folder lets
// another user pass through to a command's TMPDIR, but not list it.
func TestTempRootLockHeld(t *testing.T) {
	dir, f, err := makeTempRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if stale, _ := staleTempRoot(dir, time.Now()); stale {
		t.Error("a sweep would take a running process's folder")
	}
	g, err := os.Open(filepath.Join(dir, tempLockName))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := syscall.Flock(int(g.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err == nil {
		t.Error("the lock is not held")
	}
	if info, err := os.Stat(dir); err != nil || info.Mode().Perm() != 0o711 {
		t.Errorf("folder mode %v (%v), want 0711", info.Mode().Perm(), err)
	}
	if _, err := os.Stat(filepath.Join(dir, tempLockName+".new")); !os.IsNotExist(err) {
		t.Errorf("the lock's temporary name stays: %v", err)
	}
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
