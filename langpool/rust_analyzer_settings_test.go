package langpool

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/intel"
)

// TestRustAnalyzerStopsWhenTheRepositoryGainsSettings: rust-analyzer
// found on PATH must not serve a workspace whose rust-analyzer.toml (its
// settings win over the pool's: build scripts on, overrideCommand) or
// path toolchain file would make it run the repository's programs
// (docs/language-intel.md). The check is made only when the server
// starts: a rust-analyzer.toml that appears while it runs (a `git
// checkout` of another branch, a `git pull`) is read by the running
// rust-analyzer, which reloads it, and the pool keeps serving the code
// tools from it. The next question must find the server refused (and
// stopped), as it would be had the file been there at the start.
func TestRustAnalyzerStopsWhenTheRepositoryGainsSettings(t *testing.T) {
	root := t.TempDir()
	main := filepath.Join(root, "src", "main.rs")
	p, _ := fakeRustPool(t, root, map[string]string{"src/main.rs": "// REPORT\nfn main() {}\n"}, nil)
	rustReport(t, p, main) // started: nothing of the repository's overrides the pool

	if err := os.WriteFile(filepath.Join(root, "rust-analyzer.toml"), []byte("cargo.buildScripts.overrideCommand = [\"./evil\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := p.Diagnostics(ctx, []string{main})
	if !errors.Is(err, intel.ErrNotServed) || !strings.Contains(err.Error(), "rust-analyzer.toml") {
		t.Errorf("diagnostics after the repository gained a rust-analyzer.toml: %v, want not served: rust-analyzer.toml", err)
	}
	if running := p.Running(); len(running) != 0 {
		t.Errorf("servers still running over the repository's rust-analyzer.toml: %v, want none", running)
	}
}
