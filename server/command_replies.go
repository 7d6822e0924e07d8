package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// agentls.prompt returns as soon as its turn starts; the turn's first
// question (a window/showMessageRequest) could then reach the editor ahead
// of the prompt's reply. jsonrpc.el 1.0.14 (Emacs 28, 29) runs that
// question's handler inside the wait of the synchronous executeCommand
// (eglot-execute-command); when the reply comes in meanwhile, its
// continuation throws out of the handler, which never answers: the turn
// waits for an answer no one can give (editors/emacs/tests/sentinel-test.el
// hung so, one run in five on a loaded machine). So a turn that a request
// started waits until that request's reply is written before it says
// anything to the editor.

// replyWriteBound bounds how long a turn waits for its request's reply to
// be written (a client that stops reading).
const replyWriteBound = 5 * time.Second

// callIDKey is the context key of the request id a handler answers.
type callIDKey struct{}

// withCallID gives each request's handler the request's id in its context
// (callID).
func withCallID(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.IsCall() {
			ctx = context.WithValue(ctx, callIDKey{}, req.ID())
		}
		return next(ctx, req)
	}
}

// callID is the id of the request ctx's handler answers.
func callID(ctx context.Context) (jsonrpc2.ID, bool) {
	id, ok := ctx.Value(callIDKey{}).(jsonrpc2.ID)
	return id, ok
}

// idKey is a request id as the gates know it: "n:7" or "s:abc".
func idKey(id jsonrpc2.ID) string {
	if n, ok := id.Number(); ok {
		return fmt.Sprintf("n:%d", n)
	}
	str, _ := id.StringValue()
	return "s:" + str
}

// replyGates are the replies something waits to see written, by request id
// (idKey).
type replyGates struct {
	mu    sync.Mutex
	gates map[string]chan struct{}
}

// expect returns a channel closed once the reply to id is written
// (written).
func (g *replyGates) expect(id jsonrpc2.ID) <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gates == nil {
		g.gates = map[string]chan struct{}{}
	}
	ch := make(chan struct{})
	g.gates[idKey(id)] = ch
	return ch
}

// waiting reports whether a gate waits for a reply.
func (g *replyGates) waiting() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.gates) > 0
}

// written closes the gate of the reply msg, if msg is a reply a gate waits
// for. The connection hands its stream its own message types, which do
// not tell their id: the envelope is read, only while a gate waits.
func (g *replyGates) written(msg jsonrpc2.Message) {
	if !g.waiting() {
		return
	}
	body, err := jsonrpc2.EncodeMessage(msg)
	if err != nil {
		return
	}
	var env struct {
		ID     any     `json:"id"`
		Method *string `json:"method"`
	}
	if json.Unmarshal(body, &env) != nil || env.Method != nil {
		return
	}
	var key string
	switch id := env.ID.(type) {
	case float64:
		key = fmt.Sprintf("n:%d", int64(id))
	case string:
		key = "s:" + id
	default:
		return
	}
	g.mu.Lock()
	ch, ok := g.gates[key]
	delete(g.gates, key)
	g.mu.Unlock()
	if ok {
		close(ch)
	}
}

// forget drops the gate of id (its wait ended otherwise).
func (g *replyGates) forget(id jsonrpc2.ID) {
	g.mu.Lock()
	delete(g.gates, idKey(id))
	g.mu.Unlock()
}

// afterReply returns a function that waits, bounded by replyWriteBound and
// s's context, until the reply to the request ctx's handler answers is
// written: a turn that request starts calls it before it sends anything
// (agent.PromptRequest.OnStart). Without a request id it waits for nothing.
func (s *Server) afterReply(ctx context.Context) func() {
	id, ok := callID(ctx)
	if !ok {
		return func() {}
	}
	gate := s.replies.expect(id)
	return func() {
		t := time.NewTimer(replyWriteBound)
		defer t.Stop()
		select {
		case <-gate:
		case <-t.C:
			s.replies.forget(id)
			slog.Warn("the reply to the request that started a turn was not written in time: the turn goes on", "waited", replyWriteBound)
		case <-s.ctx.Done():
			s.replies.forget(id)
		}
	}
}
