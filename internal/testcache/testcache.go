// Package testcache keeps the test binaries' build caches out of the
// user's cache folder.
package testcache

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Run runs the package's tests (m.Run) with a Private cache folder and
// returns their exit code: `os.Exit(testcache.Run(m))` ends a TestMain.
func Run(m *testing.M) int {
	cleanup := Private()
	defer cleanup()
	return m.Run()
}

// Private points $XDG_CACHE_HOME at a fresh temporary folder for the whole
// test binary, so the per-workspace caches of the commands the tests run
// (agent/tools.cacheDir: one folder per throw-away workspace) land there,
// not in the user's ~/.cache/agentls. Call it (or Run) from TestMain,
// after sandbox.Main, and run the returned cleanup after m.Run. It panics
// when it cannot: the tests must not fall back to the user's folder.
func Private() (cleanup func()) {
	dir, err := os.MkdirTemp("", "agentls-test-cache-")
	if err != nil {
		panic(fmt.Sprintf("testcache: a private cache folder: %v", err))
	}
	old, had := os.LookupEnv("XDG_CACHE_HOME")
	os.Setenv("XDG_CACHE_HOME", dir)
	if err := Inside(os.TempDir()); err != nil {
		panic("testcache: " + err.Error())
	}
	return func() {
		if had {
			os.Setenv("XDG_CACHE_HOME", old)
		} else {
			os.Unsetenv("XDG_CACHE_HOME")
		}
		os.RemoveAll(dir)
	}
}

// Inside reports (as an error) when os.UserCacheDir, where agentls puts
// its caches, is not a folder inside dir.
func Inside(dir string) error {
	cache, err := os.UserCacheDir()
	if err != nil {
		return nil // no cache folder at all: nothing is written
	}
	rel, err := filepath.Rel(dir, cache)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return fmt.Errorf("the cache folder %s is not inside %s", cache, dir)
	}
	return nil
}
