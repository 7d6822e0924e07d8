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
	changes := diffSnaps(before, takeSnapshot(folders, scanWorkspace(folders), before.repos), configAll, sandbox.Policy{Mode: sandbox.ModeOff, UntrustedPath: folders})
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

// TestSentinelFloodCannotHideAHookOrAnAutoRunFile: a command that fills a
// new repository's hooks folder past the snapshot's budget cannot hide a
// pre-commit behind its other files (the hooks git runs are recorded
// outside the budget), and one that fills a new auto-run folder (.idea)
// past it gets that folder asked about as not wholly checked, never
// taken for what its first files show.
func TestSentinelFloodCannotHideAHookOrAnAutoRunFile(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 41,000 files")
	}
	t.Parallel()
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "main.go"), "package main\n")
	folders := []string{root}
	before := takeSnapshot(folders, scanWorkspace(folders), nil)
	for _, dir := range []string{filepath.Join(root, "a", ".git", "hooks"), filepath.Join(root, ".idea", "aaa")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i := range sentinelEntries + 500 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("h%05d.sample", i)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	writeFile(t, filepath.Join(root, "a", ".git", "config"), "[core]\n\tbare = false\n")
	writeFile(t, filepath.Join(root, "a", ".git", "hooks", "pre-commit"), "#!/bin/sh\ntouch pwned\n")
	writeFile(t, filepath.Join(root, ".idea", "runConfigurations", "evil.xml"), "<component/>\n")
	changes := reported(diffSnaps(before, takeSnapshot(folders, scanWorkspace(folders), before.repos), configAll, sandbox.Policy{Mode: sandbox.ModeOff, UntrustedPath: folders}))
	var hook, idea bool
	for _, c := range changes {
		switch {
		case c.rel == "a/.git/hooks/pre-commit":
			hook = true
		case c.rel == ".idea" && strings.Contains(c.what, "not all listed"):
			idea = true
		case c.rel == ".idea/runConfigurations/evil.xml":
			idea = true
		}
	}
	if !hook || !idea {
		var shown []string
		for _, c := range changes {
			if len(shown) < 10 {
				shown = append(shown, c.rel+": "+c.what)
			}
		}
		t.Fatalf("pre-commit reported: %v; .idea reported as not wholly checked: %v; among %d changes: %s", hook, idea, len(changes), strings.Join(shown, "; "))
	}
	// Not kept: the hook and the whole .idea the command made are gone.
	if failed := restoreChanges(changes); len(failed) > 0 {
		t.Fatalf("could not undo: %+v", failed)
	}
	for _, p := range []string{"a/.git/hooks/pre-commit", ".idea"} {
		if _, err := os.Lstat(filepath.Join(root, p)); err == nil {
			t.Errorf("%s is still there after the undo", p)
		}
	}
}
