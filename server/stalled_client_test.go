package server_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/server"
)

// floodModel streams text until its context ends on the first call, and
// reports every later call on second.
type floodModel struct {
	calls   atomic.Int32
	flooded chan struct{} // closed once the first call has begun streaming
	stopped chan struct{} // closed when the first call saw its context end
	second  chan struct{} // receives on every call after the first
}

func (m *floodModel) Complete(ctx context.Context, _ llm.Request, onEvent func(llm.Event)) (llm.Response, error) {
	if m.calls.Add(1) > 1 {
		m.second <- struct{}{}
		return llm.Response{Message: llm.Message{Content: "ok"}, FinishReason: "stop"}, nil
	}
	chunk := strings.Repeat("x", 4096)
	for i := 0; ctx.Err() == nil; i++ {
		onEvent(llm.Event{Kind: llm.EventText, Text: chunk})
		if i == 0 {
			close(m.flooded)
		}
	}
	close(m.stopped)
	return llm.Response{}, ctx.Err()
}

// TestStalledClientDoesNotHoldCancelledTurn: a client that stops reading
// fills the pipe and the server's send queue, so the turn's updates block;
// agent/cancel must still end the turn (every send honours the turn's
// context), and a second prompt on the session then reaches the model —
// all while the client still reads nothing.
func TestStalledClientDoesNotHoldCancelledTurn(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	model := &floodModel{flooded: make(chan struct{}), stopped: make(chan struct{}), second: make(chan struct{}, 1)}
	dir := t.TempDir()                       // before serveRaw: removed after the server stopped
	c, _ := serveRaw(t, ctx, server.Options{ // the server stops when the test cleanup closes the pipes
		Getenv: homeOnly(t),
		NewProvider: func(config.Config, func(string) string, string) (llm.Provider, error) {
			return model, nil
		},
	})
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://` + dir + `","capabilities":{}}}`)
	c.next()
	c.send(`{"jsonrpc":"2.0","id":2,"method":"agent/newSession","params":{"mode":"build"}}`)
	sid := c.next()["result"].(map[string]any)["sessionId"].(string)

	// From here on the client reads nothing.
	c.send(`{"jsonrpc":"2.0","id":3,"method":"agent/prompt","params":{"sessionId":"` + sid + `","text":"flood"}}`)
	select {
	case <-model.flooded: // it streams on, 4 KB a chunk, until the pipe and the send queue are full
	case <-ctx.Done():
		t.Fatal("the model never streamed")
	}
	c.send(`{"jsonrpc":"2.0","method":"agent/cancel","params":{"sessionId":"` + sid + `"}}`)
	select {
	case <-model.stopped: // its blocked send gave up at the cancellation
	case <-ctx.Done():
		t.Fatal("the turn's send stayed blocked after agent/cancel")
	}
	// A prompt right after a cancel waits for the cancelled turn to wind
	// down (it must not stay blocked on the client either).
	c.send(`{"jsonrpc":"2.0","id":4,"method":"agent/prompt","params":{"sessionId":"` + sid + `","text":"again"}}`)
	select {
	case <-model.second:
	case <-ctx.Done():
		t.Fatal("the cancelled turn stayed blocked on a client that does not read")
	}
}
