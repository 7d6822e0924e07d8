package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestRewindAFileTheAgentReplacedByAFolder: turn 1 deletes the file x and
// writes x/y.txt (x is a folder now). A code rewind to before turn 1 must
// bring the file x back; it removes x/y.txt and the folder, but skips x
// (computed while x was still a folder), so x is gone altogether.
func TestRewindAFileTheAgentReplacedByAFolder(t *testing.T) {
	t.Parallel()
	const script = `
name: swap
steps:
  - tool_calls:
      - {id: r1, name: rm, args: {path: x}}
  - tool_calls:
      - {id: w1, name: write, args: {path: x/y.txt, content: "inside\n"}}
  - text: swapped
`
	ctx := context.Background()
	ed := &memEditor{}
	m, _ := newTestManager(t, script, ed, nil)
	root := m.ws.Root()
	if err := os.WriteFile(filepath.Join(root, "x"), []byte("the file x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newTestSession(t, m, "build")
	if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "turn one"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("turn one: %+v %v", res, err)
	}
	if got := readOrAbsent(m, "x/y.txt"); got != "inside\n" {
		t.Fatalf("after turn one x/y.txt = %q", got)
	}
	res, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: userIDs(s)[0], What: agentproto.RewindCode})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rewind: %+v", res)
	if got := readOrAbsent(m, "x"); got != "the file x\n" {
		fi, serr := os.Lstat(filepath.Join(root, "x"))
		t.Fatalf("after the rewind x = %q (lstat: %v %v), want the file as it was before turn one (restored %v, skipped %v)", got, fi, serr, res.Restored, res.Skipped)
	}
	// Its undo puts the folder back.
	undo, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: res.UndoMessageID, What: agentproto.RewindCode})
	if err != nil {
		t.Fatal(err)
	}
	if got := readOrAbsent(m, "x/y.txt"); got != "inside\n" {
		t.Fatalf("after the undo x/y.txt = %q, want %q (undo %+v)", got, "inside\n", undo)
	}
}
