package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/sandbox"
)

// TestRewindBringsBackTheExecutableBit: turn 1 runs `chmod -x s.sh` (the
// content is unchanged). The checkpoint before it lists s.sh with mode
// 0755, but a code rewind to before turn 1 compares digests only: s.sh
// is "the same as the checkpoint", nothing is done, and the script stays
// unexecutable. The rewind must give the file the checkpoint's mode.
func TestRewindBringsBackTheExecutableBit(t *testing.T) {
	t.Parallel()
	const script = `
name: chmod
steps:
  - tool_calls:
      - {id: c, name: run, args: {command: "chmod -x s.sh"}}
  - text: done
`
	ctx := context.Background()
	ed := &memEditor{}
	m, _ := newTestManager(t, script, ed, func(c *config.Config) {
		c.Run.Allow = []string{"chmod -x s.sh"}
		if sandbox.Detect().Status(sandbox.ModeLandlock).Mode == string(sandbox.ModeLandlock) {
			c.Sandbox.Mode = string(sandbox.ModeLandlock)
		}
	})
	path := filepath.Join(m.ws.Root(), "s.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\necho hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o755); err != nil {
		t.Fatal(err)
	}
	s := newTestSession(t, m, "build")
	if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "turn one"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("turn one: %+v %v", res, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("after turn one s.sh: %v %v (the command did not run: %s)", fi, err, ed.toolResult("c"))
	}
	res, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: userIDs(s)[0], What: agentproto.RewindCode})
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o755 {
		t.Fatalf("after the rewind s.sh has mode %v, want 0755 as before turn one; result %+v", fi.Mode().Perm(), res)
	}
}
