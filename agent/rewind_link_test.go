package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestRewindDoesNotWriteThroughALinkInsideTheWorkspace: a file the
// checkpoint has as a regular file that is now a symbolic link to another
// file of the workspace (the user ran `ln -sf b.txt a.txt` between two
// turns, no manifest or known.json edited) is skipped by a code rewind
// (rewindPath), never written through: b.txt keeps the user's edit. Before
// (found by the rewind audit helper), the rewind put a.txt's old content
// into b.txt while listing b.txt as a conflict left alone.
func TestRewindDoesNotWriteThroughALinkInsideTheWorkspace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m, _ := newTestManager(t, "name: x\nsteps:\n  - text: one\n  - text: two\n", &memEditor{}, nil)
	root := m.ws.Root()
	write := func(rel, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "A before turn one\n")
	write("b.txt", "B\n")
	s := newTestSession(t, m, "build")
	if _, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "turn one"}); err != nil {
		t.Fatal(err)
	}
	to := s.Messages()[0].ID
	// The user, between the turns: a.txt becomes a link to b.txt.
	if err := os.Remove(filepath.Join(root, "a.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("b.txt", filepath.Join(root, "a.txt")); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "turn two"}); err != nil {
		t.Fatal(err)
	}
	// After turn two: the user's own edit of b.txt.
	write("b.txt", "B with the user's work since\n")

	res, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: to, What: agentproto.RewindCode})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "b.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "B with the user's work since\n" {
		t.Fatalf("the rewind wrote through the link a.txt -> b.txt: b.txt = %q, the user's edit is lost (result %+v)", b, res)
	}
}
