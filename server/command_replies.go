package server

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/agent"
)

// A plain editor runs workspace/executeCommand synchronously
// (eglot-execute-command), and a question or an edit that reaches it ahead
// of the command's reply is lost: jsonrpc.el (1.0.14 in Emacs 28, 1.0.25 in
// Emacs 30) runs the request's handler inside the command's wait, and the
// reply coming in while the person reads the question throws out of the
// handler, which never answers. agentls.prompt returns as its turn starts,
// and a command that settles what a turn waits for (agentls.requestChanges,
// approvePlan, rejectPlan, answer) lets that turn go on at once: either way
// the turn's next question could overtake the reply, and the turn waited
// for ever (sentinel-test.el on Emacs 28 and plan-comments-test.el on Emacs
// 30 hung so on a loaded machine). So a question
// (window/showMessageRequest) or an edit (workspace/applyEdit) waits until
// every command the editor sent before it is answered — except the
// command whose own handler asks it.

// replyWriteBound bounds how long a question or an edit waits for the
// commands before it to be answered (a command that waits on a person).
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

// idKey is a request id as commandReplies knows it: "n:7" or "s:abc".
func idKey(id jsonrpc2.ID) string {
	if n, ok := id.Number(); ok {
		return fmt.Sprintf("n:%d", n)
	}
	str, _ := id.StringValue()
	return "s:" + str
}

// commandReplies are the editor's workspace/executeCommand calls read and
// not yet answered.
type commandReplies struct {
	mu      sync.Mutex
	pending map[string]struct{} // by idKey
	// answered is closed, and replaced, each time a pending command is
	// answered.
	answered chan struct{}
}

// read notes msg, a message read from the editor, if it is a command.
func (c *commandReplies) read(msg jsonrpc2.Message) {
	call, ok := msg.(*jsonrpc2.Call)
	if !ok || call.Method() != "workspace/executeCommand" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending == nil {
		c.pending = map[string]struct{}{}
		c.answered = make(chan struct{})
	}
	c.pending[idKey(call.ID())] = struct{}{}
}

// written notes body, a message written to the editor (or given up on),
// if it answers a pending command. The body is decoded only while a command
// is pending.
func (c *commandReplies) written(body []byte) {
	c.mu.Lock()
	none := len(c.pending) == 0
	c.mu.Unlock()
	if none {
		return
	}
	msg, err := jsonrpc2.DecodeMessage(body)
	resp, ok := msg.(*jsonrpc2.Response)
	if err != nil || !ok {
		return
	}
	key := idKey(resp.ID())
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.pending[key]; ok {
		delete(c.pending, key)
		close(c.answered)
		c.answered = make(chan struct{})
	}
}

// before returns the commands pending now but those in except, and the
// channel closed when one of the pending ones is next answered.
func (c *commandReplies) before(except []string) (map[string]struct{}, <-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ids := make(map[string]struct{}, len(c.pending))
	for id := range c.pending {
		if !slices.Contains(except, id) {
			ids[id] = struct{}{}
		}
	}
	return ids, c.answered
}

// stillPending drops from ids the commands answered since, and returns the
// channel closed when a pending one is next answered.
func (c *commandReplies) stillPending(ids map[string]struct{}) <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id := range ids {
		if _, ok := c.pending[id]; !ok {
			delete(ids, id)
		}
	}
	return c.answered
}

// afterCommandReplies waits, at most replyWriteBound and while ctx lasts,
// until every command the editor sent so far is answered, except the one
// whose handler ctx belongs to and the one the turn works for
// (agent.Caller: agentls.approvePlan waits while its turn marks the plan
// approved): a question or an edit sent then reaches the editor after
// those replies.
func (s *Server) afterCommandReplies(ctx context.Context) {
	var except []string
	if id, ok := callID(ctx); ok {
		except = append(except, idKey(id))
	}
	if caller, ok := agent.Caller(ctx); ok {
		if id, ok := callID(caller); ok {
			except = append(except, idKey(id))
		}
	}
	ids, answered := s.commands.before(except)
	if len(ids) == 0 {
		return
	}
	t := time.NewTimer(replyWriteBound)
	defer t.Stop()
	for {
		select {
		case <-answered:
		case <-t.C:
			slog.Warn("the editor's commands were not answered in time: the question or edit goes first", "waited", replyWriteBound, "commands", len(ids))
			return
		case <-ctx.Done():
			return
		}
		if answered = s.commands.stillPending(ids); len(ids) == 0 {
			return
		}
	}
}
