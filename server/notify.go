package server

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/host"
	"github.com/agentls/agentls/questions"
)

// The server is the agent's Editor: its Notifier and DocumentShower here,
// its Applier in edits.go, its Asker in questions.go, its ProgressStarter
// in progress.go.
var (
	_ agent.Editor         = (*Server)(nil)
	_ agent.Notifier       = (*Server)(nil)
	_ agent.DocumentShower = (*Server)(nil)
)

// Update sends `agent/update` to an editor that declared
// experimental.agent; others get log lines and messages (plain.go). A
// running call's progress goes only to an editor that declared
// experimental.agent.toolCallProgress (tool_progress.go); others see it as
// the turn's work-done progress (PROTOCOL.md: their tool_call_update is a
// call's end).
func (s *Server) Update(ctx context.Context, sessionID string, update agent.Update) {
	if s.trackToolCall(ctx, sessionID, update) {
		return
	}
	if s.plainClient() {
		s.plainUpdate(ctx, sessionID, update)
		return
	}
	if params, ok := updateParams(sessionID, update); ok {
		s.notifyClient(ctx, agentproto.Update.Name(), params)
		return
	}
	s.notifyClient(ctx, agentproto.Update.Name(), map[string]any{"sessionId": sessionID, "update": update})
}

// ModeChanged sends `agent/modeChanged`.
func (s *Server) ModeChanged(ctx context.Context, ev agentproto.ModeChangedParams) {
	s.plain.setMode(ev.SessionID, string(ev.Mode))
	s.refreshLenses()
	s.notifyClient(ctx, agentproto.ModeChanged.Name(), ev)
}

// Notify sends a plan-mode notify line as `window/logMessage` (Info).
func (s *Server) Notify(ctx context.Context, line string) {
	s.notifyClient(ctx, "window/logMessage", map[string]any{"type": 3, "message": questions.Escape(line)})
}

// Bounds on waiting for the editor besides editor.request_timeout_secs
// (variables for tests: jsonrpc2's calls cannot run in a synctest bubble).
var (
	// notifyWriteBound is how long one notification may wait to be
	// written: a client that stops reading costs a sender at most this.
	notifyWriteBound = 5 * time.Second
	// showDocumentBound bounds window/showDocument (opening the plan beside
	// the approval question).
	showDocumentBound = 10 * time.Second
	// lensRefreshBound bounds workspace/codeLens/refresh.
	lensRefreshBound = 5 * time.Second
)

// ShowDocument asks the editor to open a file (`window/showDocument`), when
// it supports that; it gives up after showDocumentBound or when ctx ends.
// Every document is opened beside a question (a plan beside its approval, a
// question's generated document), so it must not take the focus from that
// question: the request carries no takeFocus. Not true: eglot 30 would
// select the document's window while the question's minibuffer waits, and
// the keys typed to answer would edit the document. Not false either:
// eglot reads JSON false as :json-false, which Emacs Lisp takes as true.
// Without it eglot only displays the buffer; VS Code and Neovim keep their
// defaults (our Neovim plugin opens it in a split either way).
func (s *Server) ShowDocument(ctx context.Context, abs string) error {
	s.mu.Lock()
	ok := s.caps.showDocument
	s.mu.Unlock()
	if !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, showDocumentBound)
	defer cancel()
	var res struct {
		Success bool `json:"success"`
	}
	return s.callClient(ctx, "window/showDocument", map[string]any{"uri": host.URIOfPath(abs)}, &res)
}

// notifyClient sends a notification; it gives up when ctx ends or after
// notifyWriteBound (a client that stops reading holds no one past their
// context, nor anyone for long). The notification is then dropped.
func (s *Server) notifyClient(ctx context.Context, method string, params any) {
	ctx, cancel := context.WithTimeout(ctx, notifyWriteBound)
	defer cancel()
	if err := s.conn.Notify(ctx, method, params); err != nil {
		slog.Debug("notify client", "method", method, "err", err)
	}
}

// callClient sends a request to the client under ctx. When ctx ends first,
// the client is told ($/cancelRequest) within notifyWriteBound: unlike
// protocol.Call, whose cancel notice waits without bound, a client that
// stops reading holds the caller no longer than that.
func (s *Server) callClient(ctx context.Context, method string, params, result any) error {
	_, err := s.callClientID(ctx, method, params, result)
	return err
}

// callClientID is callClient returning the request's id as well (a
// withdrawn question remembers it: withdrawn_question.go).
func (s *Server) callClientID(ctx context.Context, method string, params, result any) (jsonrpc2.ID, error) {
	id, err := s.conn.Call(ctx, method, params, result)
	if ctx.Err() != nil {
		nctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), notifyWriteBound)
		defer cancel()
		_ = s.conn.Notify(nctx, "$/cancelRequest", map[string]any{"id": cancelID(id)})
	}
	return id, err
}

// cancelID is a request id as $/cancelRequest carries it.
func cancelID(id jsonrpc2.ID) any {
	if n, ok := id.Number(); ok {
		return n
	}
	v, _ := id.StringValue()
	return v
}

// requestTimeout is how long a request to the editor that needs no human
// may take (config editor.request_timeout_secs).
func (s *Server) requestTimeout() time.Duration {
	return secondsOr(s.currentConfig().Editor.RequestTimeoutSecs, 60)
}

// secondsOr is a configured number of seconds as a duration, def when it
// is not set (0 or less).
func secondsOr(secs, def int) time.Duration {
	if secs <= 0 {
		secs = def
	}
	return time.Duration(secs) * time.Second
}

// editorSilentError is callEditor's error when the editor did not answer
// within editor.request_timeout_secs.
type editorSilentError struct {
	method  string
	timeout time.Duration
}

func (e editorSilentError) Error() string {
	return fmt.Sprintf("the editor did not answer %s within %s (editor.request_timeout_secs)", e.method, e.timeout)
}

// callEditor sends a request that needs no human, bounded by
// editor.request_timeout_secs: an editor that never answers ends it with an
// error (and a log line) instead of holding the turn.
func (s *Server) callEditor(ctx context.Context, method string, params, result any) error {
	timeout := s.requestTimeout()
	callCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := s.callClient(callCtx, method, params, result)
	if err != nil && ctx.Err() == nil && callCtx.Err() != nil {
		slog.Warn("the editor did not answer in time", "method", method, "timeout", timeout)
		return editorSilentError{method: method, timeout: timeout}
	}
	return err
}
