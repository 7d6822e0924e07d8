package tools

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestSafeGitFor: only git that a rule let run unasked changes: its
// environment loses the variables that pick another repository or bring
// configuration, and gets the safe configuration.
func TestSafeGitFor(t *testing.T) {
	t.Parallel()
	if g := safeGitFor("", "git status", "/ws/root"); len(g.set) != 0 || len(g.drop) != 0 {
		t.Errorf("a git command the user confirmed changed: %+v", g)
	}
	if g := safeGitFor("make", "make", "/ws/root"); len(g.set) != 0 {
		t.Errorf("make changed: %+v", g)
	}
	g := safeGitFor("git status", "/usr/bin/git status", "/ws/root")
	env := g.apply([]string{"PATH=/bin", "GIT_DIR=/evil", "GIT_CONFIG_PARAMETERS='core.fsmonitor'='x'", "GIT_CONFIG_KEY_9=core.pager", "GIT_CEILING_DIRECTORIES=/", "HOME=/h"})
	for _, want := range []string{"PATH=/bin", "HOME=/h", "GIT_CEILING_DIRECTORIES=/ws", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_COUNT=8", "GIT_CONFIG_KEY_0=safe.bareRepository", "GIT_CONFIG_VALUE_0=explicit", "GIT_CONFIG_KEY_1=core.fsmonitor", "GIT_CONFIG_VALUE_2=/dev/null", "GIT_PAGER=cat"} {
		if !slices.Contains(env, want) {
			t.Errorf("env lacks %s: %q", want, env)
		}
	}
	for _, kv := range env {
		if strings.HasPrefix(kv, "GIT_DIR=") || strings.HasPrefix(kv, "GIT_CONFIG_PARAMETERS=") || strings.HasPrefix(kv, "GIT_CONFIG_KEY_9=") || kv == "GIT_CEILING_DIRECTORIES=/" {
			t.Errorf("env keeps %s", kv)
		}
	}
	drop := g.terminalDrop()
	if !slices.Contains(drop, "GIT_DIR") || slices.Contains(drop, "GIT_CONFIG_COUNT") || slices.Contains(drop, "GIT_PAGER") || slices.Contains(drop, "GIT_CONFIG_KEY_*") {
		t.Errorf("terminal drops %q: it must unset GIT_DIR and keep what it sets", drop)
	}
}

// TestSafeGitConfigWithRealGit: real git, in a repository whose own
// configuration sets core.fsmonitor and core.hooksPath, reads agentls's
// values under the safe environment.
func TestSafeGitConfigWithRealGit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"config", "core.fsmonitor", "touch x"}, {"config", "core.hooksPath", "hooks"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	g := safeGitFor("git --*", "git config", dir)
	for key, want := range map[string]string{"core.fsmonitor": "false", "core.hooksPath": "/dev/null", "safe.bareRepository": "explicit"} {
		cmd := exec.Command("git", "config", "--get", key)
		cmd.Dir, cmd.Env = dir, g.apply(os.Environ())
		out, err := cmd.Output()
		if got := strings.TrimSpace(string(out)); err != nil || got != want {
			t.Errorf("git config %s = %q (%v), want %q", key, got, err, want)
		}
	}
}
