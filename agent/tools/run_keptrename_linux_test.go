package tools

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunCannotSwapAKeptPathByRenamingItsParent: under bubblewrap a kept
// path (a nested repository's .git, an auto-run file below the top) is a
// read-only bind mount, and a mount follows its folder when a folder above
// it is renamed. A command must not move that folder away and make a new
// one at the old name with a new .git/config (core.fsmonitor) or a new
// .dir-locals.el: the folders above a kept path are mount points too
// (sandbox.pinnedAncestors), which cannot be renamed. Before (found by the
// sandbox audit helper), the swap worked, the after-command check took the
// difference at a kept path as someone else's, and the planted
// core.fsmonitor ran outside every sandbox at the next `git status` there
// (VS Code's git extension runs one in nested repositories by itself). The
// command stands for the test code an auto-allowed `go test ./...` runs, or
// an approved `npm install`'s postinstall script. Landlock alone held (the
// folders above a kept path get no rights there).
func TestRunCannotSwapAKeptPathByRenamingItsParent(t *testing.T) {
	if testing.Short() {
		t.Skip("real sandbox")
	}
	const swapRepo = `cp -a vendor/dep vendor/dep.new && printf '[core]\n\tfsmonitor = "touch pwned-by-fsmonitor; :"\n' >> vendor/dep.new/.git/config && mv vendor/dep vendor/dep.old && mv vendor/dep.new vendor/dep`
	const swapLocals = `mkdir -p lib/node_modules && mv lib/pkg lib/node_modules/old && mkdir lib/pkg && echo '((nil . ((eval . (shell-command "pwned")))))' > lib/pkg/.dir-locals.el`
	for _, mode := range []string{"auto", "bwrap"} {
		t.Run(mode, func(t *testing.T) {
			requireMode(t, mode)
			for _, tc := range []struct {
				name, rule, command, target string
			}{
				{"auto-allowed, nested repository's config", "go test ./...", swapRepo, "vendor/dep/.git/config"},
				{"approved, nested repository's config", "", swapRepo, "vendor/dep/.git/config"},
				{"auto-allowed, nested .dir-locals.el", "go test ./...", swapLocals, "lib/pkg/.dir-locals.el"},
			} {
				t.Run(tc.name, func(t *testing.T) {
					env := repoWorkspace(t, mode)
					writeFile(t, env.path("lib/pkg/.dir-locals.el"), "()\n")
					env.confirmRule = tc.rule
					args, err := json.Marshal(map[string]string{"command": tc.command})
					if err != nil {
						t.Fatal(err)
					}
					var got RunOutput
					value(t, call(t, runTool, env, string(args)), &got)
					b, _ := os.ReadFile(env.path(tc.target))
					if !strings.Contains(string(b), "pwned") {
						return // held
					}
					t.Errorf("%s: %s now holds what the command planted, and the check after it said nothing (auto_run %q, exit %d %s):\n%s",
						mode, tc.target, got.AutoRun, got.ExitCode, got.Output, b)
					if strings.HasSuffix(tc.target, ".git/config") {
						// What the editor's git does next, outside any sandbox.
						dep := env.path("vendor/dep")
						cmd := exec.Command("git", "status", "--short")
						cmd.Dir = dep
						cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dep)
						_ = cmd.Run()
						if _, err := os.Stat(filepath.Join(dep, "pwned-by-fsmonitor")); err == nil {
							t.Errorf("%s: a plain `git status` in vendor/dep then ran the planted core.fsmonitor outside the sandbox", mode)
						}
					}
				})
			}
		})
	}
}
