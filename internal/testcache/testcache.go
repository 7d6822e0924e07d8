// Package testcache keeps the test binaries' build caches out of the
// user's cache folder.
package testcache

import (
	"os"
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
// after sandbox.Main, and run the returned cleanup after m.Run.
func Private() (cleanup func()) {
	dir, err := os.MkdirTemp("", "agentls-test-cache-")
	if err != nil {
		return func() {}
	}
	old, had := os.LookupEnv("XDG_CACHE_HOME")
	os.Setenv("XDG_CACHE_HOME", dir)
	return func() {
		if had {
			os.Setenv("XDG_CACHE_HOME", old)
		} else {
			os.Unsetenv("XDG_CACHE_HOME")
		}
		os.RemoveAll(dir)
	}
}
