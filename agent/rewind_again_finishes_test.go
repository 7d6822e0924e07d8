package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/checkpoint"
)

// TestRewindAgainFinishesAnInterruptedRewind: a rewind is killed after
// its last file was written, before its journal was removed (every file
// is already rewound). docs/rewind.md says: "rewind again to finish (the
// files already rewound are no change)". The rewind again finds nothing
// to change and so never removes the journal: the session reports the
// rewind as interrupted at every load, and every later rewind takes files
// found as that journal says for agentls's own writes.
func TestRewindAgainFinishesAnInterruptedRewind(t *testing.T) {
	t.Parallel()
	const script = `
name: one
steps:
  - tool_calls:
      - {id: e1, name: edit, args: {path: a.txt, old_string: alpha, new_string: beta}}
  - text: edited
`
	ctx := context.Background()
	ed := &memEditor{}
	m, _ := newTestManager(t, script, ed, nil)
	if err := os.WriteFile(filepath.Join(m.ws.Root(), "a.txt"), []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newTestSession(t, m, "build")
	if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "turn one"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("turn one: %+v %v", res, err)
	}
	turn1 := userIDs(s)[0]
	res, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: turn1, What: agentproto.RewindCode})
	if err != nil || readOrAbsent(m, "a.txt") != "alpha\n" {
		t.Fatalf("rewind: %+v %v, a.txt %q", res, err, readOrAbsent(m, "a.txt"))
	}
	// The kill came between its last write and the journal's removal:
	// the journal is as the rewind wrote it.
	j := checkpoint.Journal{ID: res.UndoMessageID, SessionID: s.ID(), To: turn1, Started: time.Now(),
		Paths: []string{"a.txt"}, Digests: map[string]string{"a.txt": checkpoint.Digest([]byte("alpha\n"))}}
	if err := m.checkpoints.BeginJournal(j); err != nil {
		t.Fatal(err)
	}
	// As the [rewind] line says: rewind again to finish it.
	if _, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: turn1, What: agentproto.RewindCode}); err != nil {
		t.Fatal(err)
	}
	if left, err := m.checkpoints.PendingJournal(s.ID()); err != nil || left != nil {
		t.Fatalf("after the rewind again the interrupted rewind's journal is still there (%+v, %v): the session still reports it as interrupted at each load", left, err)
	}
}
