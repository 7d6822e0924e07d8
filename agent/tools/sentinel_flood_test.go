package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/sandbox"
)

// TestSentinelFloodCannotHideANewRepoConfig: a command that fills one new
// repository's hooks folder past the snapshot's budget (sentinelEntries)
// cannot hide another new repository's core.fsmonitor further on: the
// repositories' configs are recorded first and outside the budget. Before
// (reasoned out by the sandbox audit helper), the walk recorded each
// repository's hooks before its config, and stopped at the budget: z/'s
// config, past a/'s 20,500 hooks, went unchecked and its program ran at the
// editor's next git status there.
func TestSentinelFloodCannotHideANewRepoConfig(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 20,500 files")
	}
	t.Parallel()
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "main.go"), "package main\n")
	folders := []string{root}
	before := takeSnapshot(folders, scanWorkspace(folders), nil)
	hooks := filepath.Join(root, "a", ".git", "hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range sentinelEntries + 500 {
		if err := os.WriteFile(filepath.Join(hooks, fmt.Sprintf("h%05d.sample", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(root, "z", ".git", "config"), "[core]\n\tfsmonitor = \"touch pwned; :\"\n")
	changes := diffSnaps(before, takeSnapshot(folders, scanWorkspace(folders), before.repos), false, sandbox.Policy{Mode: sandbox.ModeOff, UntrustedPath: folders})
	for _, c := range changes {
		if c.rel == "z/.git/config" {
			if !strings.Contains(c.what, "core.fsmonitor") {
				t.Fatalf("z/.git/config reported as %q, want its core.fsmonitor named", c.what)
			}
			return
		}
	}
	t.Fatalf("the new repository's config with core.fsmonitor was not reported among %d changes", len(changes))
}
