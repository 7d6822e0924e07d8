package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPromiseFixedFolder: a fixed folder (a repository's .git for a
// command the user approved that is not only git) keeps its own entries —
// no new `commondir`, no hooks/ renamed away — while what is in it stays
// writable; its read-only paths stay read-only; MountReadOnly paths are
// read-only where bubblewrap runs and leave their folder its lock files
// under Landlock alone. In every confined mode, as nobody when root.
func TestPromiseFixedFolder(t *testing.T) {
	for _, mode := range confinedModes {
		t.Run(string(mode), func(t *testing.T) {
			requireLayers(t, mode)
			r := newRig(t)
			git := filepath.Join(r.ws, ".git")
			for _, d := range []string{"hooks", "objects"} {
				must(t, os.Mkdir(filepath.Join(git, d), 0o755))
				must(t, chownFor(filepath.Join(git, d), r.runAs))
			}
			pol := r.policy(mode)
			pol.ProtectGit = false
			pol.ReadOnly = []string{filepath.Join(git, "hooks"), filepath.Join(git, "config")}
			pol.Fixed = []string{git}
			for _, c := range []struct {
				name   string
				op     []string
				denied bool
			}{
				{"write in a folder in it", []string{"write", git + "/objects/y"}, false},
				{"a new commondir", []string{"write", git + "/commondir"}, true},
				{"a new hook", []string{"write", git + "/hooks/pre-commit"}, true},
				{"config", []string{"write", git + "/config"}, true},
				{"hooks renamed away", []string{"rename", git + "/hooks", git + "/h2"}, true},
				{"objects renamed away", []string{"rename", git + "/objects", git + "/o2"}, true},
				{"the folder renamed away", []string{"rename", git, r.ws + "/g2"}, true},
				{"write elsewhere", []string{"write", r.ws + "/src/x"}, false},
			} {
				out, code := r.run(pol, nil, c.op...)
				if denied := code != 0; denied != c.denied {
					t.Errorf("%s: denied=%v, want %v (%s)", c.name, denied, c.denied, strings.TrimSpace(out))
				}
			}
			pol.Fixed, pol.ReadOnly = nil, nil
			pol.MountReadOnly = []string{filepath.Join(git, "hooks")}
			if out, code := r.run(pol, nil, "write", git+"/index.lock"); code != 0 {
				t.Errorf("git's lock file beside a MountReadOnly path: %s", out)
			}
			out, code := r.run(pol, nil, "write", git+"/hooks/pre-commit")
			if bwrapped := mode != ModeLandlock; (code != 0) != bwrapped {
				t.Errorf("a MountReadOnly hook: denied=%v, want %v (%s)", code != 0, bwrapped, strings.TrimSpace(out))
			}
		})
	}
}
