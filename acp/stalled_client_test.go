package acp_test

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/acp"
	"github.com/agentls/agentls/agent/llm"
)

// floodModel streams numbered text chunks until its context ends on the
// first call, and answers every later call at once (reporting it on second).
type floodModel struct {
	calls   atomic.Int32
	full    chan struct{} // closed once the first call's chunks fill the output queue
	stopped chan struct{} // closed when the first call saw its context end
	second  chan struct{} // receives on every call after the first
}

const floodChunkBytes = 4096

func (m *floodModel) Complete(ctx context.Context, _ llm.Request, onEvent func(llm.Event)) (llm.Response, error) {
	if m.calls.Add(1) > 1 {
		m.second <- struct{}{}
		return llm.Response{Message: llm.Message{Content: "ok"}, FinishReason: "stop"}, nil
	}
	for i := 0; ctx.Err() == nil; i++ {
		onEvent(llm.Event{Kind: llm.EventText, Text: floodChunk(i)})
		// One line is with the blocked writer, OutQueueLen wait in the
		// queue: the next chunk's send waits for room.
		if i == acp.OutQueueLen {
			close(m.full)
		}
	}
	close(m.stopped)
	return llm.Response{}, ctx.Err()
}

// floodChunk is chunk i: its number, padded to floodChunkBytes.
func floodChunk(i int) string {
	n := fmt.Sprintf("%08d", i)
	return n + strings.Repeat("x", floodChunkBytes-len(n))
}

// stallingWriter is the client's reading side that can stop reading: while
// stalled, Write blocks as on a pipe nobody drains, until resume.
type stallingWriter struct {
	w       io.Writer
	waiting chan struct{} // closed when a Write first waits on the stall
	once    sync.Once

	mu   sync.Mutex
	gate chan struct{} // non-nil while stalled; closed by resume
}

func (s *stallingWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	gate := s.gate
	s.mu.Unlock()
	if gate != nil {
		s.once.Do(func() { close(s.waiting) })
		<-gate
	}
	return s.w.Write(p)
}

func (s *stallingWriter) stall() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gate = make(chan struct{})
}

func (s *stallingWriter) resume() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gate != nil {
		close(s.gate)
		s.gate = nil
	}
}

// TestStalledClientDoesNotHoldCancelledTurn: a client that stops reading
// agentls's output while a turn streams blocks the writer and fills the
// output queue, so the turn's next session/update waits; session/cancel
// (the input side still works) must still end the turn (a turn's sends
// honour its context), the prompt is answered cancelled once the client
// reads again, and the session then takes a new prompt (not "busy"). The
// updates that went out arrive whole and in order.
func TestStalledClientDoesNotHoldCancelledTurn(t *testing.T) {
	t.Parallel()
	model := &floodModel{full: make(chan struct{}), stopped: make(chan struct{}), second: make(chan struct{}, 1)}
	out := &stallingWriter{waiting: make(chan struct{})}
	r := newRig(t, setup{model: model, wrapOut: func(w io.Writer) io.Writer { out.w = w; return out }})
	t.Cleanup(out.resume) // before the rig's cleanup: agentls can then stop
	sid := r.newSession().SessionId
	r.settle() // the session's available_commands_update is out before the stall
	ctx, cancel := context.WithTimeout(r.ctx, time.Minute)
	defer cancel()

	// From here on the client reads nothing.
	out.stall()
	type answer struct {
		stop sdk.StopReason
		err  error
	}
	answered := make(chan answer, 1)
	go func() {
		stop, err := r.prompt(sid, "flood")
		answered <- answer{stop, err}
	}()
	for _, step := range []struct {
		ch   <-chan struct{}
		fail string
	}{
		{out.waiting, "agentls never wrote to the stalled client"},
		{model.full, "the turn never filled the output queue (it stayed blocked on the stalled client)"},
	} {
		select {
		case <-step.ch:
		case <-ctx.Done():
			t.Fatal(step.fail)
		}
	}
	if err := r.conn.Cancel(ctx, sdk.CancelNotification{SessionId: sid}); err != nil {
		t.Fatalf("session/cancel: %v", err)
	}
	select {
	case <-model.stopped: // its blocked send gave up at the cancellation
	case <-ctx.Done():
		t.Fatal("the turn's session/update stayed blocked on the stalled client after session/cancel")
	}

	// The client reads again.
	out.resume()
	var a answer
	select {
	case a = <-answered:
	case <-ctx.Done():
		t.Fatal("the cancelled prompt was never answered")
	}
	if a.err != nil || a.stop != sdk.StopReasonCancelled {
		t.Fatalf("the cancelled prompt: stop %q, err %v; want cancelled", a.stop, a.err)
	}
	if stop := r.mustPrompt(sid, "again"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("the next prompt: stop %q, want end_turn", stop)
	}
	select {
	case <-model.second:
	default:
		t.Fatal("the next prompt never reached the model")
	}

	// What went out arrived whole and in order: chunks 0, 1, 2, … (the
	// one whose send gave up at the cancellation, if any, is the last).
	for _, m := range r.wire.all() {
		if raw, ok := m["unparsable"]; ok {
			t.Fatalf("a broken line reached the client: %.80q", raw)
		}
	}
	r.client.mu.Lock()
	defer r.client.mu.Unlock()
	next := 0
	for _, u := range r.client.updates {
		c := u.Update.AgentMessageChunk
		if c == nil || c.Content.Text == nil || len(c.Content.Text.Text) != floodChunkBytes {
			continue
		}
		n, err := strconv.Atoi(c.Content.Text.Text[:8])
		if err != nil || n != next || c.Content.Text.Text != floodChunk(n) {
			t.Fatalf("update %d of the flood: chunk %.12q…, want chunk %d whole", next, c.Content.Text.Text, next)
		}
		next++
	}
	// The queue's lines all arrived (the line in flight when the client
	// stalled is the first prompt's session_info_update).
	if next < acp.OutQueueLen {
		t.Fatalf("the client got %d chunks of the flood, want the %d that filled the queue", next, acp.OutQueueLen)
	}
}
