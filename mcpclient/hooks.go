package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentls/agentls/agent/tools"
)

// progressEvery is the least time between two progress reports of one call
// shown to the user: a server that floods progress notifications shows at
// most one per progressEvery (the others are dropped).
const progressEvery = 200 * time.Millisecond

// CallHooks are what a call's caller lends the server while the call runs:
// who answers the server's elicitations, and where its progress shows.
// Either may be nil.
type CallHooks struct {
	Elicit   func(ctx context.Context, e tools.MCPElicitation) (tools.MCPElicitReply, error)
	Progress func(message string)
	// Scope is who is asked (the session): a server shared by sessions
	// whose elicitation could belong to calls of two of them asks no one.
	Scope string
}

// inflight is one running call with hooks.
type inflight struct {
	ctx   context.Context
	hooks *CallHooks
	token string
	mu    sync.Mutex
	last  time.Time // the last progress shown
}

// calls are a server's running calls with hooks, newest last.
type calls struct {
	mu   sync.Mutex
	n    int
	list []*inflight
}

// add registers a running call and returns its progress token and the
// function that removes it.
func (c *calls) add(ctx context.Context, h *CallHooks) (string, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	f := &inflight{ctx: ctx, hooks: h, token: "agentls-" + strconv.Itoa(c.n)}
	c.list = append(c.list, f)
	return f.token, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		for i, x := range c.list {
			if x == f {
				c.list = append(c.list[:i], c.list[i+1:]...)
				return
			}
		}
	}
}

// byToken is the running call of a progress token, or nil.
func (c *calls) byToken(token any) *inflight {
	s := fmt.Sprint(token)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range c.list {
		if f.token == s {
			return f
		}
	}
	return nil
}

// newestElicitor is the newest running call that can ask the user, or nil:
// a server's elicitation belongs to a call of its (the protocol does not
// say which one over stdio; the newest is the one waiting on it). When the
// running calls that can ask belong to more than one scope (sessions
// sharing the server), it could be any of them: nil, so that no session's
// user is asked another's question.
func (c *calls) newestElicitor() *inflight {
	c.mu.Lock()
	defer c.mu.Unlock()
	var newest *inflight
	for i := len(c.list) - 1; i >= 0; i-- {
		f := c.list[i]
		if f.hooks.Elicit == nil {
			continue
		}
		if newest == nil {
			newest = f
		} else if f.hooks.Scope != newest.hooks.Scope {
			return nil
		}
	}
	return newest
}

// progress shows a server's progress notification on its call, at most one
// per progressEvery.
func (s *Server) progress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	f := s.calls.byToken(req.Params.ProgressToken)
	if f == nil || f.hooks.Progress == nil {
		return
	}
	f.mu.Lock()
	now := time.Now()
	if now.Sub(f.last) < progressEvery {
		f.mu.Unlock()
		return
	}
	f.last = now
	f.mu.Unlock()
	p := req.Params
	msg := fmt.Sprintf("%g", p.Progress)
	if p.Total > 0 {
		msg = fmt.Sprintf("%g/%g", p.Progress, p.Total)
	}
	if p.Message != "" {
		msg += ": " + capLine(p.Message, 200)
	}
	f.hooks.Progress(msg)
}

// elicit puts a server's elicitation to the user of its running call
// (cancel when none can ask). The SDK hands a server's requests over
// concurrently: its questions wait their turn (s.asking), so the user sees
// one at a time, and one whose call ends while it waits is cancelled
// unasked. The SDK validates an accepted form against the requested schema
// and fills in the schema's defaults (SEP-1034).
func (s *Server) elicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	f := s.calls.newestElicitor()
	if f == nil {
		slog.Info("mcp: elicitation with no call (or calls of several sessions) to ask for it; cancelled", "server", s.spec.Name)
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	p := req.Params
	e := tools.MCPElicitation{Server: s.spec.Name, Message: p.Message, Mode: p.Mode, URL: p.URL, ElicitationID: p.ElicitationID}
	if e.Mode == "" {
		e.Mode = "form"
		if p.URL != "" {
			e.Mode = "url"
		}
	}
	if p.RequestedSchema != nil {
		b, err := json.Marshal(p.RequestedSchema)
		if err != nil {
			return nil, fmt.Errorf("elicitation schema: %w", err)
		}
		e.Schema = b
	}
	// The question lasts as long as the call (its timeout, a cancel).
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(f.ctx, cancel)
	defer stop()
	select {
	case s.asking <- struct{}{}:
		defer func() { <-s.asking }()
	case <-ctx.Done():
	}
	if ctx.Err() != nil {
		slog.Debug("mcp: elicitation's call ended before it could be asked; cancelled", "server", s.spec.Name)
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	ans, err := f.hooks.Elicit(ctx, e)
	if err != nil {
		slog.Info("mcp: elicitation not answered", "server", s.spec.Name, "err", err)
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	res := &mcp.ElicitResult{Action: ans.Action}
	if ans.Action == "accept" && e.Mode == "form" {
		res.Content = ans.Content
		if res.Content == nil {
			res.Content = map[string]any{} // defaults are filled in
		}
	}
	return res, nil
}

// capLine keeps s on one line of at most n bytes.
func capLine(s string, n int) string {
	out := []rune{}
	size := 0
	for _, r := range s {
		if r == '\n' || r == '\r' {
			r = ' '
		}
		size += len(string(r))
		if size > n {
			return string(out) + "…"
		}
		out = append(out, r)
	}
	return string(out)
}
