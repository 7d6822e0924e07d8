package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/agent/tools"
)

// TestRemoveDemo: the demo's workspace goes with the cache folders the
// sandbox gave its commands, also when the workspace was named through a
// symbolic link (the server may name the folder it resolved); another
// workspace's cache stays. Before, each demo left ~100 MB of Go build
// cache in $XDG_CACHE_HOME/agentls/<hash> for good.
func TestRemoveDemo(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	real := filepath.Join(base, "real-demo")
	link := filepath.Join(base, "linked-demo")
	other := filepath.Join(base, "other")
	for _, d := range []string{real, other} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	caches := append(tools.CacheFolders(real), tools.CacheFolders(link)...)
	kept := tools.CacheFolders(other)
	if len(caches) != 4 || len(kept) != 2 {
		t.Fatalf("cache folders %v, %v: want run's and the MCP servers' for each", caches, kept)
	}
	for _, c := range append(caches, kept...) {
		if err := os.MkdirAll(filepath.Join(c, "go-build", "00"), 0o700); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(c) })
	}
	removeDemo(link)
	for _, gone := range append(caches, link) {
		if _, err := os.Lstat(gone); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", gone, err)
		}
	}
	for _, c := range kept {
		if _, err := os.Stat(c); err != nil {
			t.Errorf("another workspace's cache %s was removed: %v", c, err)
		}
	}
}
