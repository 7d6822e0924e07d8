package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/agent"
)

// progressSeq numbers work-done progress tokens.
var progressSeq atomic.Int64

// The server is the agent's ProgressStarter.
var _ agent.ProgressStarter = (*Server)(nil)

// StartProgress returns a turn's own progress handle (as gopls's progress
// tracker gives each piece of work its own): LSP work-done progress
// (`window/workDoneProgress/create`, then `$/progress` begin/report/end)
// when the client supports it. No lock is held across a request to the
// client, one turn's progress never waits for another's, and the create
// request is bounded by the turn's context and editor.request_timeout_secs.
// The progress is cancellable: the editor's `window/workDoneProgress/cancel`
// cancels the turn.
func (s *Server) StartProgress(_ context.Context, sessionID string) agent.Progress {
	s.mu.Lock()
	ok := s.caps.workDoneProgress
	s.mu.Unlock()
	if !ok {
		return noProgress{}
	}
	return &turnProgress{s: s, sessionID: sessionID, token: fmt.Sprintf("agentls-%d", progressSeq.Add(1))}
}

// noProgress is the handle for a client without work-done progress.
type noProgress struct{}

func (noProgress) Report(context.Context, string) {}
func (noProgress) End(context.Context)            {}

// progressState is where a turnProgress is.
type progressState int

const (
	progressIdle     progressState = iota // nothing sent
	progressCreating                      // create sent, begin not yet
	progressRunning                       // begun: reports go straight out
	progressDone                          // ended, or the client refused it
)

// turnProgress is one turn's work-done progress.
type turnProgress struct {
	s         *Server
	sessionID string
	token     string

	mu      sync.Mutex
	state   progressState
	pending string // the latest message reported while creating
	ended   bool   // End was called while creating
}

// step moves the progress on a report of message, or on its end, and
// returns the state it was in, which says what to send. While the create
// is under way a report only keeps the latest message and the end is
// noted, for create to send.
func (p *turnProgress) step(end bool, message string) (was progressState) {
	p.mu.Lock()
	defer p.mu.Unlock()
	was = p.state
	switch {
	case was == progressCreating && end:
		p.ended = true
	case was == progressCreating:
		p.pending = message
	case end:
		p.state = progressDone
	case was == progressIdle:
		p.state = progressCreating
	}
	return was
}

// Report shows message: the first report creates and begins the progress,
// reports while that is under way only keep the latest message.
func (p *turnProgress) Report(ctx context.Context, message string) {
	switch p.step(false, message) {
	case progressIdle:
		p.create(ctx, message)
	case progressRunning:
		p.send(ctx, map[string]any{"kind": "report", "message": message})
	}
}

// create asks the client for the token, then begins the progress with the
// latest message. Sends are queued in order (frameStream), so a report sent
// once the state is running cannot overtake the begin.
func (p *turnProgress) create(ctx context.Context, message string) {
	if err := p.s.callEditor(ctx, "window/workDoneProgress/create", map[string]any{"token": p.token}, nil); err != nil {
		slog.Debug("no work done progress for this turn", "session", p.sessionID, "err", err)
		if errors.As(err, new(editorSilentError)) {
			// An editor that declares progress but never answers its create
			// would hold every later turn's first report as long: stop asking.
			p.s.mu.Lock()
			p.s.caps.workDoneProgress = false
			p.s.mu.Unlock()
			slog.Warn("the editor does not answer window/workDoneProgress/create: no progress for the rest of this connection")
		}
		p.mu.Lock()
		p.state = progressDone
		p.mu.Unlock()
		return
	}
	p.s.progressTokens.Store(p.token, p.sessionID)
	p.mu.Lock()
	if p.pending != "" {
		message, p.pending = p.pending, ""
	}
	ended := p.ended
	p.mu.Unlock()
	p.send(ctx, map[string]any{"kind": "begin", "title": "agentls", "message": message, "cancellable": true})
	p.mu.Lock()
	if p.pending != "" && !ended {
		message, p.pending = p.pending, ""
		p.mu.Unlock()
		p.send(ctx, map[string]any{"kind": "report", "message": message})
		p.mu.Lock()
	}
	p.state = progressRunning
	ended = ended || p.ended
	p.mu.Unlock()
	if ended {
		p.End(ctx)
	}
}

// progressEndGrace bounds the progress's end after a cancelled turn: the
// editor must hear it, but a client that stops reading holds no one longer.
const progressEndGrace = 5 * time.Second

// End ends the progress. It is sent even after the turn was cancelled (the
// editor would show it forever otherwise), within progressEndGrace.
func (p *turnProgress) End(ctx context.Context) {
	if p.step(true, "") != progressRunning {
		return
	}
	p.s.progressTokens.Delete(p.token)
	endCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), progressEndGrace)
	defer cancel()
	p.send(endCtx, map[string]any{"kind": "end"})
}

func (p *turnProgress) send(ctx context.Context, value map[string]any) {
	p.s.notifyClient(ctx, "$/progress", map[string]any{"token": p.token, "value": value})
}

// cancelProgress handles `window/workDoneProgress/cancel`: the user cancelled
// a turn from its progress.
func (s *Server) cancelProgress(_ context.Context, raw jsonrpc2.RawMessage) (any, error) {
	var p struct {
		Token any `json:"token"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	token, ok := p.Token.(string)
	if !ok {
		return nil, nil
	}
	if sid, ok := s.progressTokens.Load(token); ok {
		if mgr := s.manager(); mgr != nil {
			_ = mgr.Cancel(sid.(string))
		}
	}
	return nil, nil
}
