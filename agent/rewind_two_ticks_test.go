package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestTwoStepTicksInOneMessage: one assistant message ticks step One,
// edits app.txt, then ticks step Two. Each tick takes its checkpoint named
// by that message (docs/rewind.md: "before an edit of the attached plan is
// applied ... a rewind to that message returns to the state before the
// tick"), so the second overwrites the first's manifest: the state before
// the message's first tick is gone. The conversation side keeps the first
// (noteCheckpoint: "the turn's first checkpoint is its state before it"),
// so a rewind "both" to the message drops it from the model's view and
// sets the plan's status back to approved, while its files keep the
// message's edit of app.txt and step One ticked.
func TestTwoStepTicksInOneMessage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	script := `
name: ticks
steps:
  - tool_calls:
      - {id: p1, name: plan_write, args: {title: T, path: plans/t.plan, content: "# Goal\nx\n\n## Steps\n- [ ] One\n- [ ] Two\n"}}
  - text: planned
  - tool_calls:
      - {id: e1, name: plan_edit, args: {path: plans/t.plan, old_string: "- [ ] One", new_string: "- [x] One"}}
      - {id: e2, name: edit, args: {path: app.txt, old_string: alpha, new_string: beta}}
      - {id: e3, name: plan_edit, args: {path: plans/t.plan, old_string: "- [ ] Two", new_string: "- [x] Two"}}
  - text: built
`
	m, _ := newTestManager(t, script, &memEditor{}, nil)
	if err := os.WriteFile(filepath.Join(m.ws.Root(), "app.txt"), []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newTestSession(t, m, "plan")
	if _, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "plan it"}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.SetMode(ctx, s.ID(), "build"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "build it"}); err != nil {
		t.Fatal(err)
	}
	var tick string
	for _, msg := range s.Messages() {
		for _, c := range msg.ToolCalls {
			if c.ID == "e1" {
				tick = msg.ID
			}
		}
	}
	if tick == "" {
		t.Fatal("no message with the first tick")
	}
	res, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: tick, What: agentproto.RewindBoth})
	if err != nil {
		t.Fatal(err)
	}
	app, plan := readWS(t, m, "app.txt"), readWS(t, m, "plans/t.plan")
	if app != "alpha\n" || !strings.Contains(plan, "- [ ] One") {
		t.Fatalf("after a rewind to before the message of the first tick: app.txt = %q, plan:\n%s\n(status %s; the checkpoint is the second tick's, taken after this message's edit; result %+v)", app, plan, planStatusOf(t, m), res)
	}
}
