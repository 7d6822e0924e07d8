package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestAuditRewindUndoesBuildChildEdits: in build mode the root hands its
// steps to a build sub-agent, which edits app.txt. The user then rewinds
// the code of that turn (/rewind, agent/rewind what "code" to the turn's
// message): docs/commands.md says it brings "the code as it was before the
// last turn". The sub-agent's edit is agentls's own (under the root's
// turn), so it must be restored, not taken for someone else's change and
// left as a conflict.
func TestAuditRewindUndoesBuildChildEdits(t *testing.T) {
	t.Parallel()
	script := `
steps:
  - tool_calls:
      - {id: t1, name: task, args: {kind: build, prompt: "edit", steps: ["change app"]}}
  - text: done
children:
  build-1:
    - tool_calls:
        - {id: e1, name: edit, args: {path: app.txt, old_string: alpha, new_string: beta}}
    - text: edited
`
	ctx := context.Background()
	ed := &memEditor{}
	m, model := newTestManager(t, script, ed, nil)
	app := filepath.Join(m.ws.Root(), "app.txt")
	if err := os.WriteFile(app, []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newTestSession(t, m, "build")
	if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "go"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("Prompt = %+v, %v", res, err)
	}
	if got, _ := os.ReadFile(app); string(got) != "beta\n" || model.Remaining() != 0 {
		t.Fatalf("the child's edit did not land: app.txt %q, %d steps left", got, model.Remaining())
	}
	ids := userIDs(s)
	res, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: ids[0], What: agentproto.RewindCode})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(app)
	if string(got) != "alpha\n" || len(res.Conflicts) != 0 {
		t.Fatalf("code rewind of the turn: app.txt = %q, result %+v; want the sub-agent's edit undone (alpha), no conflict", got, res)
	}
}
