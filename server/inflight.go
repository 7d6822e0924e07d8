package server

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// handlerDrainBound is how long Serve waits, once the connection ended, for
// the request handlers still running before it closes the session manager
// (var: tests shorten it).
var handlerDrainBound = 10 * time.Second

// inflight counts the request and notification handlers running, so that
// Serve closes the session manager (which releases the sessions' locks)
// only after the last one returned: a handler that started just as the
// client hung up must not create, load or write a session after the
// release. Once closed it admits no handler.
type inflight struct {
	mu      sync.Mutex
	running int
	closed  bool
	idle    chan struct{} // made by close; closed when running reaches 0
}

// enter admits one handler (false once closed: it must not run).
func (g *inflight) enter() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.running++
	return true
}

// leave ends one admitted handler.
func (g *inflight) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.running--
	if g.closed && g.running == 0 {
		close(g.idle)
	}
}

// close admits no more handlers and returns a channel closed once the
// running ones have returned.
func (g *inflight) close() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.closed {
		g.closed = true
		g.idle = make(chan struct{})
		if g.running == 0 {
			close(g.idle)
		}
	}
	return g.idle
}

// wait closes g and waits for its running handlers, at most bound; it logs
// when the bound ends the wait.
func (g *inflight) wait(bound time.Duration) {
	idle := g.close()
	t := time.NewTimer(bound)
	defer t.Stop()
	select {
	case <-idle:
	case <-t.C:
		g.mu.Lock()
		n := g.running
		g.mu.Unlock()
		slog.Warn("connection ended: request handlers still run; closing the sessions anyway", "handlers", n, "waited", bound)
	}
}

// counted runs next as one of g's handlers; after close it answers a
// request with an error instead.
func (g *inflight) counted(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if !g.enter() {
			return nil, jsonrpc2.NewError(jsonrpc2.InternalError, "the server is stopping")
		}
		defer g.leave()
		return next(ctx, req)
	}
}
