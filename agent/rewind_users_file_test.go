package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
)

// TestRewindKeepsAFileTheUserCreatedBetweenTurns: turn 1 answers; then
// the user creates mine.txt and edits theirs.txt; turn 2 writes agent.txt
// and runs a command. Turn 2's checkpoint and the scan after the command
// both see the user's files, but neither makes them agentls's own: a code
// rewind to before turn 1 deletes agent.txt and leaves mine.txt and
// theirs.txt as the user made them (listed as conflicts).
func TestRewindKeepsAFileTheUserCreatedBetweenTurns(t *testing.T) {
	t.Parallel()
	const script = `
name: users-file
steps:
  - text: one
  - tool_calls:
      - {id: w, name: write, args: {path: agent.txt, content: "agent\n"}}
  - tool_calls:
      - {id: r, name: run, args: {command: "true"}}
  - text: two
`
	ctx := context.Background()
	ed := &memEditor{}
	m, _ := newTestManager(t, script, ed, func(c *config.Config) { c.Run.Allow = []string{"true"} })
	root := m.ws.Root()
	if err := os.WriteFile(filepath.Join(root, "theirs.txt"), []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newTestSession(t, m, "build")
	if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "turn one"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("turn one: %+v %v", res, err)
	}
	if err := os.WriteFile(filepath.Join(root, "mine.txt"), []byte("the user's own\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "theirs.txt"), []byte("after\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "turn two"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("turn two: %+v %v", res, err)
	}
	if got := readWS(t, m, "agent.txt"); got != "agent\n" {
		t.Fatalf("turn two did not write agent.txt: %q", got)
	}
	if out := ed.toolResult("r"); !strings.Contains(out, `"exit_code":0`) {
		t.Fatalf("the command did not run: %s", out)
	}
	res, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: userIDs(s)[0], What: agentproto.RewindCode})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(root, "mine.txt")); err != nil || string(got) != "the user's own\n" {
		t.Errorf("the user's new file after the rewind: %q %v (result %+v)", got, err, res)
	}
	if got := readWS(t, m, "theirs.txt"); got != "after\n" {
		t.Errorf("the user's edit after the rewind: %q, want it kept (result %+v)", got, res)
	}
	if _, err := os.Stat(filepath.Join(root, "agent.txt")); !os.IsNotExist(err) {
		t.Errorf("agent.txt survived the rewind: %v (result %+v)", err, res)
	}
	conflicts := map[string]bool{}
	for _, c := range res.Conflicts {
		conflicts[c.Path] = true
	}
	if !conflicts["mine.txt"] || !conflicts["theirs.txt"] {
		t.Errorf("conflicts = %+v, want mine.txt and theirs.txt", res.Conflicts)
	}
}
