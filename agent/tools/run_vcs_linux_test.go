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
// Jujutsu's .jj — as the guard keeps every tool from them at any depth,
// nor anything else in them. A command the user approved may write the
// rest of a repository (its objects, its store), but its configuration
// neither (TestRunApprovedCannotPlantAutoRun).
func TestRunAutoAllowedCannotWriteAnyRepository(t *testing.T) {
	if st := sandbox.Detect().Status(sandbox.ModeAuto); !st.Confines() {
		t.Skipf("no sandbox layer here: %s", st.Summary)
	}
	files := map[string]string{
		"sub/.git/config":           "[core]\n",
		"sub/.git/objects/x":        "\n",
		"vendor/dep/.git/config":    "[core]\n",
		"vendor/dep/.git/objects/x": "\n",
		".hg/hgrc":                  "[ui]\n",
		".hg/store/x":               "\n",
		".jj/repo/config.toml":      "\n",
		".jj/repo/store/x":          "\n",
		"pkg/.hg/hgrc":              "[ui]\n",
		"pkg/.hg/store/x":           "\n",
	}
	for _, c := range []struct{ config, other string }{
		{"sub/.git/config", "sub/.git/objects/x"},
		{"vendor/dep/.git/config", "vendor/dep/.git/objects/x"},
		{".hg/hgrc", ".hg/store/x"},
		{".jj/repo/config.toml", ".jj/repo/store/x"},
		{"pkg/.hg/hgrc", "pkg/.hg/store/x"},
	} {
		t.Run(c.config, func(t *testing.T) {
			env := newFake(t, files)
			for _, target := range []string{c.config, c.other} {
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
				if b, _ := os.ReadFile(env.path(target)); strings.Contains(string(b), "fsmonitor") != (target == c.other) {
					t.Errorf("an approved command: %s written %v, want %v: %+v", target, target != c.other, target == c.other, got)
				}
			}
		})
	}
}
