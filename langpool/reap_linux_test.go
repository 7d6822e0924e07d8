//go:build linux && (amd64 || arm64)

package langpool

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/proctest"
)

// TestStopReapsDetachedChild: a language server's child in a session of
// its own (out of the server's process group) is gone once the pool has
// closed, with the sandbox off and under Landlock alone (no PID namespace
// ends it there: the server's reaper does). Fails on 5a68df6, where it
// lived on.
func TestStopReapsDetachedChild(t *testing.T) {
	t.Setenv(fakeDetachEnv, "1")
	for _, mode := range []string{"off", "landlock"} {
		t.Run(mode, func(t *testing.T) {
			root := t.TempDir()
			p := fakePoolWith(t, root, map[string]string{"a.go": "package a\n"}, Options{}, func(c *config.Config) { c.Sandbox.Mode = mode })
			pid := detachedChild(t, p, filepath.Join(root, "a.go"))
			child, err := proctest.Watch(pid)
			if err != nil {
				t.Fatalf("the detached child %d: %v", pid, err)
			}
			defer child.Close()
			p.Close()
			if gone, err := child.Exited(10 * time.Second); !gone || err != nil {
				t.Errorf("the server's detached child %d outlived the pool (%v)", pid, err)
			}
		})
	}
}
