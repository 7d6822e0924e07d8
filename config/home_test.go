package config

import (
	"path/filepath"
	"slices"
	"testing"
)

// withPasswdHome makes the password database's home folder home for the
// test.
func withPasswdHome(t *testing.T, home string) {
	t.Helper()
	old := passwdHome
	passwdHome = func() string { return home }
	t.Cleanup(func() { passwdHome = old })
}

// TestHomeUnsetFallsBack: without HOME (or with a relative one) agentls's
// folders are placed, and so protected, below the password database's home
// folder, never left unknown.
func TestHomeUnsetFallsBack(t *testing.T) {
	withPasswdHome(t, "/pw/u")
	for _, env := range []map[string]string{nil, {"HOME": ""}, {"HOME": "relative"}} {
		getenv := func(k string) string { return env[k] }
		if got := Home(getenv); got != filepath.FromSlash("/pw/u") {
			t.Errorf("Home(%v) = %q, want /pw/u", env, got)
		}
		if got, want := StateDir(getenv), filepath.FromSlash("/pw/u/.local/state/agentls"); got != want {
			t.Errorf("StateDir(%v) = %q, want %q", env, got, want)
		}
		if got, want := UserFile(getenv), filepath.FromSlash("/pw/u/.config/agentls/config.yaml"); got != want {
			t.Errorf("UserFile(%v) = %q, want %q", env, got, want)
		}
		if got, want := UserDirs(getenv), []string{filepath.FromSlash("/pw/u/.config/agentls")}; !slices.Equal(got, want) {
			t.Errorf("UserDirs(%v) = %q, want %q", env, got, want)
		}
	}
	getenv := func(k string) string { return map[string]string{"HOME": "/home/u"}[k] }
	if got := Home(getenv); got != filepath.FromSlash("/home/u") {
		t.Errorf("Home with HOME=/home/u = %q", got)
	}
	if got, want := AgentDirs(getenv), []string{"/home/u/.local/state/agentls", "/home/u/.config/agentls"}; !slices.Equal(got, want) {
		t.Errorf("AgentDirs = %q, want %q", got, want)
	}
	withPasswdHome(t, "")
	if got := AgentDirs(func(string) string { return "" }); len(got) != 0 {
		t.Errorf("AgentDirs without any home = %q", got)
	}
	if got := StateDir(func(string) string { return "" }); got != "" {
		t.Errorf("StateDir without any home = %q, want \"\"", got)
	}
}
