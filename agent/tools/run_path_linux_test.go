package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/sandbox"
)

// TestRunPathNeverLeadsIntoTheWorkspace: a PATH entry that is relative
// (an empty entry, `.`, `node_modules/.bin`) or lies in a workspace folder
// would let a file the agent put there (any executable, moved with mv)
// answer to the name of the command a rule or the user allowed: `git
// status` would run the agent's `git`. Confined commands get PATH without
// those entries, auto-allowed or approved alike.
func TestRunPathNeverLeadsIntoTheWorkspace(t *testing.T) {
	if st := sandbox.Detect().Status(sandbox.ModeAuto); !st.Confines() {
		t.Skipf("no sandbox layer here: %s", st.Summary)
	}
	system := os.Getenv("PATH")
	for _, tc := range []struct {
		name string
		path func(root string) string
	}{
		{"an empty entry", func(string) string { return ":" + system }},
		{"a trailing colon", func(string) string { return system + ":" }},
		{"dot", func(string) string { return ".:" + system }},
		{"a relative folder", func(string) string { return "bin:" + system }},
		{"a workspace folder", func(root string) string { return filepath.Join(root, "bin") + ":" + system }},
		{"a workspace folder with ..", func(root string) string { return filepath.Join(root, "bin", "..", "bin") + ":" + system }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newFake(t, map[string]string{"git": "#!/bin/sh\necho planted\n", "bin/git": "#!/bin/sh\necho planted\n"})
			for _, p := range []string{"git", "bin/git"} {
				if err := os.Chmod(env.path(p), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv("PATH", tc.path(env.ws.Root()))
			for _, mode := range []string{"auto", "off"} { // confined, and unconfined (every command asked)
				env.cfg.Sandbox.Mode = mode
				for _, rule := range []string{"git --version", ""} { // auto-allowed, approved
					env.confirmRule = rule
					var got RunOutput
					value(t, call(t, runTool, env, `{"command":"git --version"}`), &got)
					if strings.Contains(got.Output, "planted") || !strings.Contains(got.Output, "git version") {
						t.Errorf("mode %s, rule %q: `git --version` ran %q", mode, rule, got.Output)
					}
				}
			}
			env.cfg.Sandbox.Mode = "auto"
			var got RunOutput
			value(t, call(t, runTool, env, `{"command":"echo \"$PATH\""}`), &got)
			if strings.TrimSpace(got.Output) != system {
				t.Errorf("the command's PATH is %q, want %q", strings.TrimSpace(got.Output), system)
			}
		})
	}
}

// TestCommandPolicyUntrustedPath: every workspace folder's PATH entries
// are dropped, except the home folder's (a workspace there is held to plan
// mode; its servers live in ~/go/bin and the like).
func TestCommandPolicyUntrustedPath(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	p := CommandPolicy(config.Default(), []string{home, proj}, false, Unasked)
	if len(p.UntrustedPath) != 1 || p.UntrustedPath[0] != proj {
		t.Errorf("UntrustedPath %q, want only %s", p.UntrustedPath, proj)
	}
}
