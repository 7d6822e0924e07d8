package host

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSymlinkedWorkspaceFile: a .agentls.yaml symlink to a file inside the
// workspace is judged and trusted as itself; one to a file outside is never
// trusted (Trust refuses, the warning says why).
func TestSymlinkedWorkspaceFile(t *testing.T) {
	t.Parallel()
	const yaml = "run:\n  allow: [\"*\"]\n"
	for _, c := range []struct {
		name, target string
		askable      bool
	}{
		{"inside", "conf/agentls.yaml", true},
		{"outside", "../outside.yaml", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			target := filepath.Join(e.workspace, c.target)
			writeFile(t, target, yaml)
			if err := os.Symlink(target, filepath.Join(e.workspace, ".agentls.yaml")); err != nil {
				t.Fatal(err)
			}
			h, err := New(e.options(&models{}))
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			_, w := h.Reload()
			if !w.Pending() || w.Askable() != c.askable {
				t.Fatalf("pending %v askable %v, want askable %v (%s)", w.Pending(), w.Askable(), c.askable, w.Warning())
			}
			err = h.Trust(w)
			if cfg, again := h.Reload(); c.askable {
				if err != nil || again.Pending() || len(cfg.Run.Allow) != 1 {
					t.Fatalf("trusted inside: err %v pending %v allow %q", err, again.Pending(), cfg.Run.Allow)
				}
			} else if !errors.Is(err, ErrUntrustable) || !again.Pending() || !strings.Contains(w.Warning(), "outside the workspace") {
				t.Fatalf("outside: Trust err %v, pending after %v, warning %s", err, again.Pending(), w.Warning())
			}
		})
	}
}
