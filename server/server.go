// Package server is agentls's LSP glue: the JSON-RPC connection, the handlers
// for the standard and `agent/*` methods (one thin file per area), and the
// editor-facing adapters the agent uses (edit applier, question presenter,
// mode and update notifications). It delegates the work to the agent,
// workspace and guard packages.
package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/host"
	"github.com/agentls/agentls/internal/lspwire"
	"github.com/agentls/agentls/workspace"
)

// ErrExitWithoutShutdown is returned by Serve when the client sent `exit`
// without `shutdown` first (LSP: the process should exit with code 1).
var ErrExitWithoutShutdown = errors.New("exit without shutdown")

// Options configure a server.
type Options struct {
	// NewProvider builds the chat model once the configuration is known
	// (after initialize). Nil means host.NewProvider.
	NewProvider func(cfg config.Config, getenv func(string) string, root string) (llm.Provider, error)
	// ConfigFile, when set, replaces <root>/.agentls.yaml (the --config flag).
	ConfigFile string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Version is reported in serverInfo.
	Version string
	// MaxMessageBytes caps one incoming message's body (--max-message-mb);
	// 0 means DefaultMaxMessageBytes. A larger message is dropped and
	// answered with an error.
	MaxMessageBytes int
}

// Server serves one editor over one connection.
type Server struct {
	opts Options
	conn jsonrpc2.Conn
	stop context.CancelFunc
	// reviewSeq numbers reviewed edits (their annotation ids).
	reviewSeq atomic.Int64

	mu sync.Mutex
	// host is the workspace, configuration and agent this connection
	// serves, built by initialize (nil before).
	host *host.Host
	caps clientCaps
	// initializing is set while (and after) an initialize builds the host.
	initializing bool
	shutdown     bool
	// progressTokens maps the token of a running turn's work-done progress to
	// its session (window/workDoneProgress/cancel).
	progressTokens sync.Map
	// configDiagnostics are the config files' problems, shown once initialized.
	configDiagnostics []config.Diagnostic
	exitReceived      bool
	// docWork lints documents and reports plan edits off the read loop.
	docWork *docWork
	// ctx is Serve's context: it ends when the connection does.
	ctx context.Context
	// withdrawn are the questions withdrawn unanswered, for a reply that
	// comes later (withdrawn_question.go).
	withdrawn withdrawnQuestions
	// unanswered are a plain editor's requests not yet answered, which a
	// question or an edit waits for (reply_order.go).
	unanswered unansweredRequests
	// plain holds the messages for editors without experimental.agent.
	plain plainNotes
	// live orders running calls' progress before their ends (tool_progress.go).
	live liveCalls
	// current is the session agentls.prompt uses without a sessionId: the
	// last one created, loaded or prompted on this connection (under mu).
	current string
	// bg counts the turns started by agentls.prompt (run under ctx) and
	// lens refreshes, for Serve to wait on.
	bg sync.WaitGroup
	// handlers counts the request handlers running, for Serve to wait on
	// before it closes the session manager (inflight.go).
	handlers inflight
}

// Serve serves the editor on rwc until `exit`, the end of the input, or ctx
// is cancelled. Outstanding turns are cancelled and pending requests to the
// client are withdrawn before it returns.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) error {
	outer := ctx
	ctx, stop := context.WithCancel(context.WithoutCancel(outer))
	defer stop()
	s := &Server{opts: opts, stop: stop, ctx: ctx}
	defer context.AfterFunc(outer, s.halt)() // the caller's cancel ends turns first too
	stream := newFrameStream(eofNotifier{ReadWriteCloser: rwc, onEOF: s.halt}, opts.MaxMessageBytes)
	stream.written = s.unanswered.written
	s.conn = jsonrpc2.NewConn(replyWatch{Stream: stream, read: s.unanswered.read, seen: s.lateReply}, jsonrpc2.WithCodec(lspwire.Codec{ProtocolTypes: true}), jsonrpc2.WithPreempter(s))
	s.docWork = s.startDocWork()
	handler := swallowNotificationErrors(protocol.CancelHandler(jsonrpc2.AsyncHandler(s.handlers.counted(recoverPanics(withCallID(s.route))))))
	s.conn.Go(ctx, handler)

	select {
	case <-ctx.Done():
	case <-s.conn.Done():
	}
	s.mu.Lock()
	h := s.host
	exitWithout := s.exitReceived && !s.shutdown
	s.mu.Unlock()
	s.halt() // ends the turns, those started by agentls.prompt too
	// A handler that began as the client hung up may still be on its way
	// to the manager: it finishes (or is refused) before the sessions close.
	s.handlers.wait(handlerDrainBound)
	if h != nil {
		h.Close()
	}
	s.bg.Wait()
	_ = s.conn.Close()
	connErr := s.conn.Err()
	if connErr != nil && !errors.Is(connErr, io.EOF) && !errors.Is(connErr, io.ErrClosedPipe) {
		slog.Debug("connection ended", "err", connErr)
	}
	if exitWithout {
		return ErrExitWithoutShutdown
	}
	var frameErr *lspwire.FrameError
	if errors.As(connErr, &frameErr) {
		return frameErr // the editor must see a failure and restart the server
	}
	return nil
}

// halt stops the server: the running turns are cancelled first, then the
// connection's context. A request handler's context hears of the
// connection's end only through the JSON-RPC library's own propagation,
// which may come after the pending requests to the editor have failed with
// the closed connection; a turn whose edit failed that way could then ask
// the model for another step after `exit`. Cancelling the turns first makes
// every wait on the editor end as a cancel.
func (s *Server) halt() {
	if mgr := s.manager(); mgr != nil {
		mgr.CancelAll()
	}
	s.stop()
}

// eofNotifier cancels the server when the input ends: the client is gone, so
// turns, questions and edits waiting on it must end too.
type eofNotifier struct {
	io.ReadWriteCloser
	onEOF func()
}

func (e eofNotifier) Read(p []byte) (int, error) {
	n, err := e.ReadWriteCloser.Read(p)
	if err != nil {
		e.onEOF()
	}
	return n, err
}

// route dispatches a request to its handler.
func (s *Server) route(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	method := req.Method()
	if req.IsCall() && method != "shutdown" && s.isShutDown() { // shutdown itself: preemptLifecycle
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shut down: only exit is accepted")
	}
	if h, ok := agentHandlers[method]; ok {
		if !s.isInitialized() {
			return nil, jsonrpc2.NewError(serverNotInitialized, "server not initialized")
		}
		return h(s, ctx, req.Params())
	}
	if h, ok := lspHandlers[method]; ok {
		return h(s, ctx, req.Params())
	}
	if !req.IsCall() {
		slog.Debug("ignored notification", "method", method)
		return nil, nil
	}
	return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", method)
}

type handlerFunc func(s *Server, ctx context.Context, params jsonrpc2.RawMessage) (any, error)

// serverNotInitialized is LSP's error for a request before initialize.
const serverNotInitialized jsonrpc2.Code = -32002

// codeRequestFailed is LSP's RequestFailed: a prompt or agent/compact on a
// session whose turn is running ("session busy", PROTOCOL.md §2; protocol
// version 1 used -32002, which LSP reserves for "server not initialized").
const codeRequestFailed jsonrpc2.Code = -32803

// recoverPanics turns a handler panic into an internal error instead of a
// failed connection.
func recoverPanics(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (res any, err error) {
		defer func() {
			if r := recover(); r != nil {
				slog.Error("handler panicked", "method", req.Method(), "panic", r, "stack", string(debug.Stack()))
				res, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", req.Method(), r)
			}
		}()
		return next(ctx, req)
	}
}

// swallowNotificationErrors logs a notification handler's error instead of
// letting it close the connection (jsonrpc2 fails the connection on one).
func swallowNotificationErrors(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		res, err := next(ctx, req)
		if err != nil && !req.IsCall() {
			slog.Warn("notification failed", "method", req.Method(), "err", err)
			return nil, nil
		}
		return res, err
	}
}

func (s *Server) isInitialized() bool {
	return s.hosted() != nil
}

func (s *Server) isShutDown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shutdown
}

// hosted is the host built by initialize (nil before).
func (s *Server) hosted() *host.Host {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.host
}

// manager is the agent's session manager (nil before initialize).
func (s *Server) manager() agentServices {
	if h := s.hosted(); h != nil {
		if m := h.Manager(); m != nil {
			return m
		}
	}
	return nil // a nil interface: callers test mgr != nil
}

// workspace is the served workspace (nil before initialize).
func (s *Server) workspace() *workspace.Workspace {
	if h := s.hosted(); h != nil {
		return h.Workspace()
	}
	return nil
}

// currentConfig is the configuration in effect (zero before initialize).
func (s *Server) currentConfig() config.Config {
	if h := s.hosted(); h != nil {
		return h.Config()
	}
	return config.Config{}
}

// rpcError maps agent errors to JSON-RPC errors a person can act on
// (host.Classify says what went wrong).
func rpcError(err error) error {
	if err == nil {
		return nil
	}
	kind, msg := host.Classify(err)
	switch kind {
	case host.KindInvalidParams, host.KindUnknownSession:
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, msg)
	case host.KindSessionBusy:
		return jsonrpc2.NewError(codeRequestFailed, msg+": its turn is running")
	case host.KindCancelled:
		return jsonrpc2.NewError(requestCancelled, msg)
	}
	return jsonrpc2.NewError(jsonrpc2.InternalError, msg)
}

// requestCancelled is LSP's RequestCancelled error code.
const requestCancelled jsonrpc2.Code = -32800

func invalidParams(format string, args ...any) error {
	return jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf(format, args...))
}

// hostOptions are the options of the host of folders: the server's own and
// the editor's initializationOptions.
func (s *Server) hostOptions(folders []string, initOptions map[string]any) host.Options {
	return host.Options{
		Folders: folders, InitOptions: initOptions, ConfigFile: s.opts.ConfigFile,
		Getenv: s.opts.Getenv, NewProvider: s.opts.NewProvider, Editor: s,
		LanguageIntel: s.languageIntel, // language_intel.go
	}
}
