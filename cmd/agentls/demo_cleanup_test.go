package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/config"
)

// TestRemoveDemo: the demo's workspace goes with its home and the cache folders the
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
	if err := os.MkdirAll(filepath.Join(demoHome(link), ".local", "state", "agentls"), 0o700); err != nil {
		t.Fatal(err)
	}
	removeDemo(link)
	for _, gone := range append(caches, link, demoHome(link)) {
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

// TestDemoEnv: the demo's server finds the user's configuration, state and
// instructions only in the demo's own home inside its workspace, and no
// key or other setting in its environment. Before, it looked up the home
// in the password database: a broken ~/.config/agentls/config.yaml failed
// the demo ("the model is not configured"), the user's MCP servers would
// have started, and each run left a plan lock in the user's state folder.
func TestDemoEnv(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "agentls-demo-1")
	getenv := demoEnv(dir)
	home := demoHome(dir)
	if filepath.Dir(home) != filepath.Dir(dir) || home == dir || strings.HasPrefix(filepath.Base(home), demoPrefix) {
		t.Fatalf("the demo's home %s is not beside %s under a name of its own", home, dir)
	}
	for what, path := range map[string]string{
		"config file":   config.UserFile(getenv),
		"state folder":  config.StateDir(getenv),
		"home":          config.Home(getenv),
		"config folder": strings.Join(config.UserDirs(getenv), ","),
	} {
		if rel, err := filepath.Rel(home, path); path == "" || err != nil || strings.HasPrefix(rel, "..") || strings.Contains(path, ",") {
			t.Errorf("the demo's %s is %q, want one inside %s", what, path, home)
		}
	}
	for _, key := range []string{"OPENAI_API_KEY", "AGENTLS_MODEL", "XDG_CACHE_HOME", "PATH", "HTTPS_PROXY"} {
		if v := getenv(key); v != "" {
			t.Errorf("the demo's environment gives %s=%q, want nothing", key, v)
		}
	}
}
