package tools

import (
	"os"
	"strings"
	"testing"

	"github.com/agentls/agentls/sandbox"
)

// TestRunAutoAllowedCannotWriteAnyRepository: a command that runs without
// asking cannot change a repository's configuration or hooks anywhere in
// the workspace — a nested repository's .git (VS Code's git extension runs
// `git status` in nested repositories by itself, and their core.fsmonitor
// runs outside any sandbox), Mercurial's .hg (hgrc loads extensions) and
// Jujutsu's .jj — as the guard keeps every tool from them at any depth. A
// command the user approved may (a commit).
func TestRunAutoAllowedCannotWriteAnyRepository(t *testing.T) {
	if st := sandbox.Detect().Status(sandbox.ModeAuto); !st.Confines() {
		t.Skipf("no sandbox layer here: %s", st.Summary)
	}
	files := map[string]string{
		"sub/.git/config":        "[core]\n",
		"vendor/dep/.git/config": "[core]\n",
		".hg/hgrc":               "[ui]\n",
		".jj/repo/config.toml":   "\n",
		"pkg/.hg/hgrc":           "[ui]\n",
	}
	for _, target := range []string{"sub/.git/config", "vendor/dep/.git/config", ".hg/hgrc", ".jj/repo/config.toml", "pkg/.hg/hgrc"} {
		t.Run(target, func(t *testing.T) {
			env := newFake(t, files)
			cmd := `{"command":"echo '[core] fsmonitor = sh x' >> ` + target + `"}`
			env.confirmRule = "*" // auto-allowed
			var got RunOutput
			value(t, call(t, runTool, env, cmd), &got)
			if b, _ := os.ReadFile(env.path(target)); strings.Contains(string(b), "fsmonitor") {
				t.Errorf("an auto-allowed command wrote %s: %+v", target, got)
			}
			env.confirmRule = "" // approved
			got = RunOutput{}
			value(t, call(t, runTool, env, cmd), &got)
			if b, _ := os.ReadFile(env.path(target)); !strings.Contains(string(b), "fsmonitor") {
				t.Errorf("an approved command could not write %s: %+v", target, got)
			}
		})
	}
}
