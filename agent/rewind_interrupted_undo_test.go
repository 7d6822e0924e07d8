package agent

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// killingEditor is a memEditor whose rewinds go on disk (no whole edit)
// and which stops the rewind's goroutine for good — as kill -9 stops
// agentls: no deferred cleanup of the rewind, no later step — when the
// rewind's test stall after its first file is announced.
type killingEditor struct{ *memEditor }

func (e killingEditor) Apply(ctx context.Context, req ApplyRequest) error {
	if req.Whole {
		return ErrNotWhole
	}
	return e.memEditor.Apply(ctx, req)
}

func (e killingEditor) Notify(ctx context.Context, line string) {
	e.memEditor.Notify(ctx, line)
	if strings.Contains(line, "[rewind] test stall after 1 files") {
		runtime.Goexit()
	}
}

// TestInterruptedRewindThenUndo: a rewind killed after the first of two
// files is reported on load with "rewind to <journal id> to undo it"
// (docs/rewind.md, "Crash safety"). Doing so must put back the file the
// killed rewind had already rewritten: it is the rewind's own write, not
// the user's. known.json was never told of it (the rewind is killed before
// UpdateKnown), so the undo takes that file for a change by someone else
// and leaves it rewound, as a conflict: the workspace stays half
// rewound, the very state the journal's advice promises to undo.
func TestInterruptedRewindThenUndo(t *testing.T) {
	t.Setenv(rewindStallEnv, "1")
	ctx := context.Background()
	script := `
name: x
steps:
  - tool_calls:
      - {id: w1, name: write, args: {path: a.txt, content: "a new\n"}}
      - {id: w2, name: write, args: {path: b.txt, content: "b new\n"}}
  - text: done
`
	ed := &memEditor{}
	m, _ := newTestManagerOf(t, script, ed, killingEditor{ed}, nil)
	root := m.ws.Root()
	for _, n := range []string{"a.txt", "b.txt"} {
		if err := os.WriteFile(filepath.Join(root, n), []byte(strings.TrimSuffix(n, ".txt")+" old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := newTestSession(t, m, "build")
	if _, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "rewrite them"}); err != nil {
		t.Fatal(err)
	}
	if readWS(t, m, "a.txt") != "a new\n" || readWS(t, m, "b.txt") != "b new\n" {
		t.Fatal("the turn did not write the files")
	}
	to := s.Messages()[0].ID

	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: to, What: agentproto.RewindCode})
	}()
	<-done
	j, err := m.checkpoints.PendingJournal(s.ID())
	if err != nil || j == nil {
		t.Fatalf("no journal after the killed rewind: %v", err)
	}
	if readWS(t, m, "a.txt") != "a old\n" || readWS(t, m, "b.txt") != "b new\n" {
		t.Fatalf("after the kill: a.txt %q, b.txt %q (want the first rewound, the second not)", readWS(t, m, "a.txt"), readWS(t, m, "b.txt"))
	}
	if _, _, err := m.LoadSession(ctx, s.ID()); err != nil {
		t.Fatal(err)
	}
	t.Setenv(rewindStallEnv, "")

	// The advice of the [rewind] line: rewind to the journal's id to undo.
	res, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: j.ID, What: agentproto.RewindCode})
	if err != nil {
		t.Fatal(err)
	}
	if got := readWS(t, m, "a.txt"); got != "a new\n" || len(res.Conflicts) != 0 {
		t.Fatalf("the undo of the interrupted rewind left a.txt = %q (want %q, as before the rewind); result %+v", got, "a new\n", res)
	}
}
