package langpool

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/workspace"
)

// TestDefaultServerIsNeverLookedUpInTheWorkspace: docs/guard.md
// (Sandbox, "environment") promises that PATH entries at or below a
// workspace folder are never used to look up the program of run, MCP
// servers "and language servers, whose program agentls looks up", confined
// or not (sandbox.LookUp / sandbox.Environ); docs/language-intel.md: "a
// repository cannot choose the programs agentls starts". The pool looks a
// default server (gopls, typescript-language-server…) up on the host's PATH
// with its own lookPath, which skips only relative entries: with an
// absolute workspace entry on PATH (an activated `.venv/bin`, direnv's
// `PATH_add bin`, `$PWD/node_modules/.bin`), a `bin/gopls` the repository
// ships (or the agent wrote) is the Go server agentls starts at the first
// `code` question, plan mode included, unconfined when the sandbox is off.
func TestDefaultServerIsNeverLookedUpInTheWorkspace(t *testing.T) {
	for _, mode := range []string{"auto", "off"} {
		t.Run("sandbox "+mode, func(t *testing.T) {
			root := t.TempDir()
			planted := filepath.Join(root, "bin", "gopls")
			system := filepath.Join(t.TempDir(), "gopls")
			for _, p := range []string{planted, system} {
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil { // never run
					t.Fatal(err)
				}
			}
			ws, err := workspace.New(root)
			if err != nil {
				t.Fatal(err)
			}
			cfg := config.Default()
			cfg.Sandbox.Mode = mode
			hostPath := filepath.Dir(planted) + string(os.PathListSeparator) + filepath.Dir(system)
			p := New(Options{Workspace: ws, Config: cfg, CacheDir: t.TempDir(), Getenv: func(k string) string {
				if k == "PATH" {
					return hostPath
				}
				return ""
			}})
			t.Cleanup(p.Close)
			var detail string
			for _, s := range p.Status() {
				if s.FileType == "go" {
					detail = s.Detail
				}
			}
			if strings.Contains(detail, planted) || !strings.Contains(detail, system) {
				t.Fatalf("go server = %q; want %s (PATH's entry outside the workspace), never the workspace's %s", detail, system, planted)
			}
		})
	}
}
