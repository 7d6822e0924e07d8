package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/checkpoint"
)

// TestRewindWhileAnotherAgentlsPrunes: two agentls processes on one
// workspace share the checkpoint store. Turn one edits a.txt and replaces
// the file x by a folder (x/y.txt); its checkpoint is just past the
// retention's 14 days and the objects only it uses are two hours old. A
// code rewind to it reads the checkpoint, then — after its undo checkpoint,
// or while the editor applies its first changes, before the file x (whose
// folder must go first) is re-created — the other process's hourly prune
// drops the checkpoint and removes its objects. The rewind went on and
// listed a.txt or x as skipped with no reason: a partial rewind the user
// may take for a whole one. It must be whole (the objects it needs kept
// or read before they can go), or refused with nothing changed.
func TestRewindWhileAnotherAgentlsPrunes(t *testing.T) {
	t.Parallel()
	for _, moment := range []string{"after the undo checkpoint", "while the editor applies the first changes"} {
		t.Run(moment, func(t *testing.T) {
			t.Parallel()
			const script = `
name: prune
steps:
  - tool_calls:
      - {id: e1, name: edit, args: {path: a.txt, old_string: before, new_string: after}}
      - {id: r1, name: rm, args: {path: x}}
  - tool_calls:
      - {id: w1, name: write, args: {path: x/y.txt, content: "inside\n"}}
  - text: done
`
			ctx := context.Background()
			ed := &memEditor{}
			m, _ := newTestManager(t, script, ed, nil)
			root := m.ws.Root()
			for name, text := range map[string]string{"a.txt": "a before turn one\n", "x": "the file x\n"} {
				if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s := newTestSession(t, m, "build")
			if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "turn one"}); err != nil || res.StopReason != agentproto.StopEndTurn {
				t.Fatalf("turn one: %+v %v", res, err)
			}
			to := userIDs(s)[0]
			store := m.checkpoints
			// The checkpoint is just past MaxAge; every object is older than
			// the prune's grace.
			aged := func(path string, at time.Time) {
				t.Helper()
				if err := os.Chtimes(path, at, at); err != nil {
					t.Fatal(err)
				}
			}
			aged(filepath.Join(store.Dir(), s.ID(), to+".json"), time.Now().Add(-checkpoint.DefaultRetention.MaxAge-time.Hour))
			objects, err := os.ReadDir(filepath.Join(store.Dir(), "objects"))
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range objects {
				aged(filepath.Join(store.Dir(), "objects", o.Name()), time.Now().Add(-2*time.Hour))
			}

			// The other process: its first checkpoint runs the hourly whole prune.
			var once sync.Once
			pruned := false
			pruneElsewhere := func() {
				once.Do(func() {
					aged(filepath.Join(store.Dir(), ".pruned"), time.Now().Add(-2*checkpoint.PruneInterval))
					other := checkpoint.Open(m.ws, checkpoint.DefaultRetention)
					if _, err := other.Save(ctx, "other-editor-session", "c1"); err != nil {
						t.Error(err)
					}
					pruned = !other.Has(s.ID(), to)
				})
			}
			if strings.HasPrefix(moment, "after") {
				m.afterUndoCheckpoint = pruneElsewhere
			} else {
				ed.onApply = func(ApplyRequest) { pruneElsewhere() }
			}

			res, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: to, What: agentproto.RewindCode})
			if !pruned {
				t.Fatal("the other process's prune did not drop the checkpoint: the test shows nothing")
			}
			a, x, y := readOrAbsent(m, "a.txt"), readOrAbsent(m, "x"), readOrAbsent(m, "x/y.txt")
			if err != nil {
				if a != "a after turn one\n" || y != "inside\n" {
					t.Fatalf("the rewind was refused (%v) but changed files: a.txt %q, x/y.txt %q", err, a, y)
				}
				if !strings.Contains(err.Error(), "nothing was changed") {
					t.Errorf("the refusal does not say that nothing was changed: %v", err)
				}
				return
			}
			if a != "a before turn one\n" || x != "the file x\n" || len(res.Skipped) > 0 {
				t.Fatalf("a partial rewind reported as done: a.txt %q, x %q; restored %v, skipped %v (no reason given): the other process's prune removed the objects it had not read yet",
					a, x, res.Restored, res.Skipped)
			}
		})
	}
}
