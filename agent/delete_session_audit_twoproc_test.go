package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestAuditDeleteRefusedLeavesTheSubagentsOfALiveSession: two managers on
// one workspace stand for two agentls processes. The first drives a
// session that ran a sub-agent (the session was reloaded after a restart,
// so the sub-agent's session is on disk but not open). From the second
// window the user deletes the session: the delete is refused ("open in
// another agentls process"), as the docs say it must be, yet the
// sub-agent's session is already gone (DeleteSession deletes the
// descendants first, before it learns that the root is driven elsewhere).
// The live session's `task` result still points at the sub-agent's
// transcript ("agent/loadSession of the child's id shows" its calls),
// which was deleted by a request that reported failure.
func TestAuditDeleteRefusedLeavesTheSubagentsOfALiveSession(t *testing.T) {
	t.Parallel()
	script := `
steps:
  - tool_calls:
      - {id: t1, name: task, args: {kind: explore, prompt: "look around"}}
  - text: done
children:
  explore-1:
    - text: looked
`
	ctx := context.Background()
	m, model := newTestManager(t, script, &memEditor{}, nil)
	s := newTestSession(t, m, "plan")
	if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "go"}); err != nil || res.StopReason != agentproto.StopEndTurn || model.Remaining() != 0 {
		t.Fatalf("Prompt = %+v, %v, %d steps left", res, err, model.Remaining())
	}
	children := func(mgr *Manager) []string {
		all, err := mgr.ListSessionsOf(true)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, info := range all {
			if info.ParentID == s.ID() {
				out = append(out, info.SessionID)
			}
		}
		return out
	}
	before := children(m)
	if len(before) != 1 {
		t.Fatalf("sub-agent sessions on disk: %v, want one", before)
	}
	// The first process after a restart: the root open again, its
	// sub-agent's session only on disk.
	if err := m.CloseSession(ctx, s.ID()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := m.LoadSession(ctx, s.ID()); err != nil {
		t.Fatal(err)
	}

	m2, err := NewManager(Options{Workspace: m.ws, Config: m.config(), Provider: m.Provider(), Editor: &memEditor{ws: m.ws}})
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	err = m2.DeleteSession(ctx, s.ID())
	if err == nil || !strings.Contains(err.Error(), "open in another agentls process") {
		t.Fatalf("deleting a session another process drives = %v, want the refusal", err)
	}
	if after := children(m); len(after) != len(before) {
		t.Errorf("the delete was refused, but the live session's sub-agent sessions went: before %v, after %v", before, after)
	}
}
