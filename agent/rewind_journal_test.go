package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentls/agentls/checkpoint"
)

// TestInterruptedRewindSweepsOnlyInsideTheWorkspace: loading a session
// whose rewind was interrupted removes the leftover temporary files of
// that rewind's folders, but only of real folders of the workspace: a
// journal naming a path through a symlink out of the workspace (a journal
// edited by hand, or shipped) removes nothing where the link leads.
func TestInterruptedRewindSweepsOnlyInsideTheWorkspace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m, _ := newTestManager(t, "name: x\nsteps:\n  - text: hi\n", &memEditor{}, nil)
	root := m.ws.Root()
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "outlink")); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour) // stale: swept whoever wrote it
	leftover := func(dir string) string {
		t.Helper()
		p := filepath.Join(dir, ".x.agentls-1-1.tmp")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("left\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
		return p
	}
	outsideTemp, insideTemp := leftover(outside), leftover(filepath.Join(root, "sub"))
	s := newTestSession(t, m, "plan")
	j := checkpoint.Journal{ID: "u1", SessionID: s.ID(), To: "m1", Started: time.Now(), Paths: []string{"outlink/x", "sub/x"}}
	if err := m.checkpoints.BeginJournal(j); err != nil {
		t.Fatal(err)
	}
	if _, _, err := m.LoadSession(ctx, s.ID()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(insideTemp); !os.IsNotExist(err) {
		t.Fatalf("the leftover inside the workspace was not swept: %v", err)
	}
	if _, err := os.Stat(outsideTemp); err != nil {
		t.Fatalf("a file outside the workspace was removed through a symlink: %v", err)
	}
}
