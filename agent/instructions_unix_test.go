//go:build unix

package agent

import (
	"path/filepath"
	"syscall"
	"testing"
)

// TestInstructionsSkipFIFOs: an AGENTS.md that is a FIFO (in the workspace
// or the user's) is left out at once; reading it would wait forever.
func TestInstructionsSkipFIFOs(t *testing.T) {
	t.Parallel()
	m, _ := newTestManager(t, noModel, &memEditor{}, nil)
	user := filepath.Join(t.TempDir(), "AGENTS.md")
	for _, p := range []string{user, filepath.Join(m.ws.Root(), "AGENTS.md")} {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	m.userInstructions = user
	s := newTestSession(t, m, "plan")
	if set := s.instructions(); len(set.Files()) != 0 {
		t.Fatalf("loaded %+v", set.Files())
	}
}
