package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/checkpoint"
)

// TestRewindToTheOldestKeptCheckpoint: a session with 100 checkpoints
// (the retention's PerSession) keeps its oldest one, so a code rewind to
// it is accepted. The rewind first takes its undo checkpoint — the 101st —
// and when that save is one that prunes (every 10th), the prune drops the
// oldest checkpoint — the very one being rewound to — and collects its
// objects (older than an hour in a session that long). The rewind then
// goes on from the manifest it already read: the file whose content only
// that checkpoint held is "skipped" (its object is gone for good), while
// the file the turn created is deleted. The workspace is left half
// rewound, and the checkpoint the user asked for no longer exists.
func TestRewindToTheOldestKeptCheckpoint(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	script := `
name: x
steps:
  - tool_calls:
      - {id: w1, name: write, args: {path: a.txt, content: "a after turn one\n"}}
      - {id: w2, name: write, args: {path: new.txt, content: "made by turn one\n"}}
  - text: done
`
	m, _ := newTestManager(t, script, &memEditor{}, nil)
	root := m.ws.Root()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("a before turn one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newTestSession(t, m, "build")
	if _, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "turn one"}); err != nil {
		t.Fatal(err)
	}
	to := s.Messages()[0].ID
	// 99 later turns' checkpoints (the workspace as turn one left it):
	// the session has 100, the retention's PerSession, all kept.
	store := m.checkpoints
	for i := range checkpoint.DefaultRetention.PerSession - 1 {
		if _, err := store.Save(ctx, s.ID(), fmt.Sprintf("later-%03d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if !store.Has(s.ID(), to) {
		t.Fatal("the oldest of 100 checkpoints was dropped")
	}
	// A session of 100 turns spans more than an hour: its objects are
	// older than the prune's grace.
	objects := filepath.Join(store.Dir(), "objects")
	entries, err := os.ReadDir(objects)
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Hour)
	for _, e := range entries {
		if err := os.Chtimes(filepath.Join(objects, e.Name()), old, old); err != nil {
			t.Fatal(err)
		}
	}

	res, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: to, What: agentproto.RewindCode})
	if err != nil {
		t.Fatal(err)
	}
	_, newErr := os.Stat(filepath.Join(root, "new.txt"))
	if got := readWS(t, m, "a.txt"); got != "a before turn one\n" {
		t.Fatalf("a.txt = %q after the rewind (skipped: %v; new.txt deleted: %v; the checkpoint still there: %v): the rewind's own undo checkpoint pruned the checkpoint it rewinds to, with its objects",
			got, slices.Contains(res.Skipped, "a.txt"), os.IsNotExist(newErr), store.Has(s.ID(), to))
	}
}
