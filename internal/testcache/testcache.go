// Package testcache keeps the test binaries' build caches out of the
// user's cache folder, and agentls's configuration and state folders out of
// the user's: a test reads no config.yaml of the developer's and writes no
// plan lock or trust record into their state folder.
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

// Private points $XDG_CACHE_HOME, $XDG_CONFIG_HOME and $XDG_STATE_HOME at
// a fresh temporary folder for the whole test binary, so that the
// per-workspace caches of the commands the tests run
// (agent/tools.cacheDir: one folder per throw-away workspace) land there,
// not in the user's ~/.cache/agentls, and the agentls processes the tests
// start read no configuration of the developer's (a broken
// ~/.config/agentls/config.yaml failed the process tests) and write
// nothing into their state folder. $GOENV keeps naming the developer's go
// env file (`go env -w` settings such as GOPROXY live in the config
// folder). Call it (or Run) from TestMain, after sandbox.Main, and run the
// returned cleanup after m.Run. It panics when it cannot: the tests must
// not fall back to the user's folders.
func Private() (cleanup func()) {
	dir, err := os.MkdirTemp("", "agentls-test-cache-")
	if err != nil {
		panic(fmt.Sprintf("testcache: a private cache folder: %v", err))
	}
	restore := map[string]func(){}
	set := func(key, value string) {
		old, had := os.LookupEnv(key)
		restore[key] = func() {
			if had {
				os.Setenv(key, old)
			} else {
				os.Unsetenv(key)
			}
		}
		os.Setenv(key, value)
	}
	if _, ok := os.LookupEnv("GOENV"); !ok {
		if cfg, err := os.UserConfigDir(); err == nil {
			set("GOENV", filepath.Join(cfg, "go", "env"))
		}
	}
	set("XDG_CACHE_HOME", dir)
	set("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	set("XDG_STATE_HOME", filepath.Join(dir, "state"))
	if err := Inside(os.TempDir()); err != nil {
		panic("testcache: " + err.Error())
	}
	return func() {
		for _, r := range restore {
			r()
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
