package server

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/agent"
)

// A plain editor may wait for a reply synchronously (eglot-execute-command,
// M-. on eglot), and a question or an edit that reaches it during that wait
// is lost: jsonrpc.el (1.0.14 in Emacs 28, 1.0.25 in Emacs 30) runs the
// request's handler inside the wait, and the reply coming in while the
// person reads the question throws out of the handler, which never
// answers. agentls.prompt returns as its turn starts, and a command that
// settles what a turn waits for (agentls.requestChanges, approvePlan,
// rejectPlan, answer) lets that turn go on at once: either way the turn's
// next question could overtake the reply, and the turn waited for ever
// (sentinel-test.el on Emacs 28 and plan-comments-test.el on Emacs 30 hung
// so on a loaded machine). So, for a plain editor, a question
// (window/showMessageRequest) or an edit (workspace/applyEdit) waits until
// every request the editor sent before it is answered — except the request
// whose own handler asks it and the one its turn works for. Our plugins'
// clients never wait so (and agent/prompt is answered only at its turn's
// end): nothing is tracked for them.

// replyWriteBound bounds how long a question or an edit waits for the
// requests before it to be answered (one that waits on a person, or on a
// slow language server).
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

// idKey is a request id as unansweredRequests knows it: "n:7" or "s:abc".
func idKey(id jsonrpc2.ID) string {
	if n, ok := id.Number(); ok {
		return fmt.Sprintf("n:%d", n)
	}
	str, _ := id.StringValue()
	return "s:" + str
}

// unansweredRequests are a plain editor's requests read and not yet
// answered.
type unansweredRequests struct {
	// ourClient is set once the editor declared experimental.agent (our
	// plugins): from then on nothing is tracked.
	ourClient atomic.Bool

	mu      sync.Mutex
	pending map[string]struct{} // by idKey
	// answered is closed, and replaced, each time a pending request is
	// answered.
	answered chan struct{}
}

// read notes msg, a message read from the editor, if it is a request.
func (c *unansweredRequests) read(msg jsonrpc2.Message) {
	call, ok := msg.(*jsonrpc2.Call)
	if !ok || c.ourClient.Load() {
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
// if it answers a pending request. The body is decoded only while a
// request is pending.
func (c *unansweredRequests) written(body []byte) {
	if c.none() {
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

// none reports whether no request is pending.
func (c *unansweredRequests) none() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending) == 0
}

// before returns the requests pending now but those in except, and the
// channel closed when one of the pending ones is next answered.
func (c *unansweredRequests) before(except []string) (map[string]struct{}, <-chan struct{}) {
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

// stillPending drops from ids the requests answered since, and returns the
// channel closed when a pending one is next answered.
func (c *unansweredRequests) stillPending(ids map[string]struct{}) <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id := range ids {
		if _, ok := c.pending[id]; !ok {
			delete(ids, id)
		}
	}
	return c.answered
}

// afterEarlierReplies waits, at most replyWriteBound and while ctx lasts,
// until every request the editor sent so far is answered, except the one
// whose handler ctx belongs to and the one the turn works for
// (agent.Caller: agentls.approvePlan waits while its turn marks the plan
// approved): a question or an edit sent then reaches the editor after
// those replies.
func (s *Server) afterEarlierReplies(ctx context.Context) {
	var except []string
	if id, ok := callID(ctx); ok {
		except = append(except, idKey(id))
	}
	if caller, ok := agent.Caller(ctx); ok {
		if id, ok := callID(caller); ok {
			except = append(except, idKey(id))
		}
	}
	ids, answered := s.unanswered.before(except)
	if len(ids) == 0 {
		return
	}
	t := time.NewTimer(replyWriteBound)
	defer t.Stop()
	for {
		select {
		case <-answered:
		case <-t.C:
			slog.Warn("the editor's requests were not answered in time: the question or edit goes first", "waited", replyWriteBound, "requests", len(ids))
			return
		case <-ctx.Done():
			return
		}
		if answered = s.unanswered.stillPending(ids); len(ids) == 0 {
			return
		}
	}
}
