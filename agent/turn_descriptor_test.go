package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/proctest"
)

// chatDescriptors counts this process's descriptors open on session id's
// .chat file (Linux's /proc/self/fd; the test is skipped elsewhere).
func chatDescriptors(t *testing.T, id string) int {
	t.Helper()
	n, err := proctest.OpenFiles(func(path string) bool { return strings.HasSuffix(path, id+".chat") })
	if err != nil {
		t.Skip(err)
	}
	return n
}

const descriptorScript = `
name: descriptor
steps:
  - tool_calls:
      - {id: w, name: plan_write, args: {title: P, path: plans/p.plan, content: "# Goal\nG.\n\n## Steps\n- [ ] one\n"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/p.plan}}
  - text: revising
`

// TestTurnHoldsOneChatDescriptor: a turn writes its messages through at
// most one descriptor of its session file, and none is left open once the
// turn has ended (sessionstore.Store.Hold, closed by the turn's Sync).
func TestTurnHoldsOneChatDescriptor(t *testing.T) {
	t.Parallel()
	during := make(chan int, 1)
	var id string
	ed := &memEditor{ask: func(ctx context.Context, req AskRequest) (AskReply, error) {
		if req.Purpose != "plan_approval" {
			return AskReply{}, errors.New("unexpected question")
		}
		during <- chatDescriptors(t, id)
		return AskReply{Answers: map[string]any{"approve": false}}, nil
	}}
	m, _ := newTestManager(t, descriptorScript, ed, nil)
	s := newTestSession(t, m, "plan")
	id = s.ID()
	res, err := m.Prompt(context.Background(), PromptRequest{SessionID: id, Text: "plan"})
	if err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	select {
	case n := <-during:
		if n != 1 {
			t.Errorf("during the turn: %d descriptors open on the session file, want 1", n)
		}
	default:
		t.Fatal("the turn asked nothing")
	}
	if n := chatDescriptors(t, id); n != 0 {
		t.Errorf("after the turn: %d descriptors open on the session file, want 0", n)
	}
}
