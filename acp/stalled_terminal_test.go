package acp_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/acp"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// terminalFloodModel runs `sleep 60` for a prompt "run it" (then ends the
// turn), and for a prompt "flood" streams text chunks until its context
// ends, closing full once they fill the output queue.
type terminalFloodModel struct {
	full     chan struct{}
	fullOnce sync.Once
}

func (m *terminalFloodModel) Complete(ctx context.Context, req llm.Request, onEvent func(llm.Event)) (llm.Response, error) {
	last := req.Messages[len(req.Messages)-1]
	switch {
	case last.Role == llm.RoleUser && strings.Contains(last.Content, "flood"):
		for i := 0; ctx.Err() == nil; i++ {
			onEvent(llm.Event{Kind: llm.EventText, Text: floodChunk(i)})
			if i == acp.OutQueueLen {
				m.fullOnce.Do(func() { close(m.full) })
			}
		}
		return llm.Response{}, ctx.Err()
	case last.Role == llm.RoleUser && strings.Contains(last.Content, "run it"):
		return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: []agentproto.ToolCall{
			{ID: "r1", Name: "run", Arguments: `{"command":"sleep 60"}`},
		}}, FinishReason: "tool_calls"}, nil
	}
	return llm.Response{Message: llm.Message{Content: "done"}, FinishReason: "stop"}, nil
}

// TestStalledClientDoesNotHoldACancelledTerminalRun: a command runs in the
// client's terminal; the client stops reading while another session's
// turn fills the output queue; session/cancel of the first session must
// still end its turn (docs/acp.md: a cancel works while the client reads
// nothing): terminal/kill, terminal/output and terminal/release each give
// up after their grace instead of waiting on the stalled client for good,
// and the call's result is recorded. Before, those requests went through
// the SDK, whose writes wait without a context.
func TestStalledClientDoesNotHoldACancelledTerminalRun(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	var once sync.Once
	client := &testClient{permit: choose("allow_once"), onTerminal: func(*clientTerminal) { once.Do(func() { close(started) }) }}
	model := &terminalFloodModel{full: make(chan struct{})}
	out := &stallingWriter{waiting: make(chan struct{})}
	r := newRig(t, setup{userConfig: buildByDefault, client: client, caps: terminalCaps, model: model,
		wrapOut: func(w io.Writer) io.Writer { out.w = w; return out }})
	t.Cleanup(out.resume) // before the rig's cleanup: agentls can then stop
	runner, flooder := r.newSession().SessionId, r.newSession().SessionId
	r.settle()
	ctx, cancel := context.WithTimeout(r.ctx, time.Minute)
	defer cancel()

	ran := r.promptAsync(runner, "run it")
	select {
	case <-started:
	case <-ctx.Done():
		t.Fatal("the command never started in the client's terminal")
	}
	out.stall() // from here on the client reads nothing
	flooded := r.promptAsync(flooder, "flood")
	select {
	case <-model.full:
	case <-ctx.Done():
		t.Fatal("the flood never filled the output queue")
	}
	if err := r.conn.Cancel(ctx, sdk.CancelNotification{SessionId: runner}); err != nil {
		t.Fatalf("session/cancel: %v", err)
	}
	// The run's result is recorded once its turn has let go of the
	// terminal: the session file holds it while the client still reads
	// nothing (its answer to the prompt cannot reach the client yet).
	chat := filepath.Join(r.dir, ".agentls", "chats", string(runner)+".chat")
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		b, _ := os.ReadFile(chat)
		if strings.Contains(string(b), `"tool_call_id":"r1"`) {
			break
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			t.Fatalf("the cancelled run's turn stayed blocked on the stalled client (no result for r1 in %s)", chat)
		}
	}
	r.cancel(flooder)
	out.resume()
	for name, ch := range map[string]<-chan promptResult{"run": ran, "flood": flooded} {
		select {
		case res := <-ch:
			if res.stop != sdk.StopReasonCancelled {
				t.Errorf("the %s prompt: stop %q (%v), want cancelled", name, res.stop, res.err)
			}
		case <-ctx.Done():
			t.Fatalf("the %s prompt was never answered", name)
		}
	}
}
