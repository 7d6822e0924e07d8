// Package lspclient is an LSP client for agentls that acts as an editor
// would: it talks JSON-RPC to a server over OS pipes, keeps a log of every
// message the server sends, answers the server's requests (applyEdit, which it
// applies to the files and its open buffers, askUser, showMessageRequest,
// showDocument) with pluggable handlers, and lets its user wait on conditions
// re-checked on every message. `agentls demo` drives the server through it,
// as do the end-to-end tests (server/internal/lsptest) and the benchmarks.
package lspclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Message is one message the server sent to the editor.
type Message struct {
	Method string
	Params json.RawMessage
	IsCall bool
	// ID is a request's id as JSON (`7` or `"abc"`); empty for a
	// notification. A $/cancelRequest names it in its params.
	ID string
}

// Handlers answer the server's requests. A nil handler gets the default.
type Handlers struct {
	// ApplyEdit answers workspace/applyEdit; the default applies the edit to
	// the files on disk, as an editor that saves would.
	ApplyEdit func(edit json.RawMessage) (applied bool, failureReason string)
	// ApplyEditResult, when set, answers workspace/applyEdit with the whole
	// result object (e.g. with the VS Code extension's `_agentls`); it wins
	// over ApplyEdit.
	ApplyEditResult func(edit json.RawMessage) any
	// AskUser answers agent/askUser with the result object (e.g.
	// {"answers":{…}} or {"dismissed":true}); the default dismisses.
	AskUser func(params json.RawMessage) any
	// ShowMessageRequest answers window/showMessageRequest with the chosen
	// action (nil = dismissed); the default picks the first action.
	ShowMessageRequest func(params json.RawMessage) any
	// ReadFor is how long the person takes over a question before AskUser
	// or ShowMessageRequest answers it (its answer goes back no sooner):
	// agentls takes an allowing answer given within permission.HumanFloor
	// as the client's own, not a person's. 0 answers at once, as a client
	// that answers by itself does.
	ReadFor time.Duration
	// OnMessage, if set, sees every message as it arrives, in wire order
	// (before Await callers), on the connection's read loop: it must not
	// block.
	OnMessage func(Message)
	// Unanswered lists server requests (by method) this editor never answers,
	// as a hung editor: they wait until the editor closes.
	Unanswered []string
	// Requests answer other server requests by method (agent/diagnostics,
	// agent/navigate of an editor with language intelligence).
	Requests map[string]func(params json.RawMessage) (any, error)
}

// Client is a connected LSP client: the editor side of one server.
type Client struct {
	Root     string
	conn     jsonrpc2.Conn
	handlers Handlers
	toServer io.Closer
	// closeOnce guards the end of the server; serveErr is what it returned.
	closeOnce sync.Once
	quitOnce  sync.Once
	serveErr  error

	mu      sync.Mutex
	changed chan struct{} // closed and replaced on every new message
	log     []Message
	modes   map[string]string    // sessionId → mode, as a status bar shows it
	docs    map[string]*document // open buffers by absolute path
	served  chan error
	quit    chan struct{} // closed by Close: unanswered requests give up
}

// Serve is how the editor starts a server on its side of the pipes (e.g.
// server.Serve). It must return when its input ends.
type Serve func(ctx context.Context, rwc io.ReadWriteCloser) error

// Start connects a new editor to a server started by serve over two OS pipes.
func Start(ctx context.Context, root string, serve Serve, h Handlers) (*Client, error) {
	c2sR, c2sW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("pipe: %w", err)
	}
	s2cR, s2cW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("pipe: %w", err)
	}
	e := &Client{Root: root, handlers: h, changed: make(chan struct{}), modes: map[string]string{}, docs: map[string]*document{}, served: make(chan error, 1), toServer: c2sW, quit: make(chan struct{})}
	go func() {
		err := serve(ctx, pipeRWC{r: c2sR, w: s2cW})
		_ = s2cW.Close()
		_ = c2sR.Close()
		e.served <- err
	}()
	e.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(pipeRWC{r: s2cR, w: c2sW}), jsonrpc2.WithCodec(jsonCodec{}), jsonrpc2.WithPreempter(e))
	e.conn.Go(ctx, jsonrpc2.AsyncHandler(e.handle))
	return e, nil
}

// pipeRWC joins the read end of one pipe and the write end of another.
type pipeRWC struct {
	r *os.File
	w *os.File
}

func (p pipeRWC) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipeRWC) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipeRWC) Close() error                { return errors.Join(p.r.Close(), p.w.Close()) }

// Call sends a request and decodes its result into result (may be nil). If
// ctx ends first, the request is cancelled with `$/cancelRequest`, as editors do.
func (e *Client) Call(ctx context.Context, method string, params, result any) error {
	return protocol.Call(ctx, e.conn, method, params, result)
}

// Notify sends a notification.
func (e *Client) Notify(ctx context.Context, method string, params any) error {
	return e.conn.Notify(ctx, method, params)
}

// Disconnect is an editor that vanishes: it closes the server's input and
// waits for the server to return, leaving its own handlers as they are.
func (e *Client) Disconnect() error {
	e.closeOnce.Do(func() {
		_ = e.toServer.Close()
		e.serveErr = <-e.served
	})
	return e.serveErr
}

// Close disconnects and then closes the editor's side (waiting for its own
// request handlers to return).
func (e *Client) Close() error {
	err := e.Disconnect()
	e.quitOnce.Do(func() { close(e.quit) })
	_ = e.conn.Close()
	return err
}

// Shutdown sends shutdown and exit, then waits for the server to return.
func (e *Client) Shutdown(ctx context.Context) error {
	if err := e.Call(ctx, "shutdown", nil, nil); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := e.Notify(ctx, "exit", nil); err != nil {
		return fmt.Errorf("exit: %w", err)
	}
	e.closeOnce.Do(func() { e.serveErr = <-e.served })
	_ = e.conn.Close()
	return e.serveErr
}

func (e *Client) record(m Message) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.log = append(e.log, m)
	if m.Method == "agent/modeChanged" {
		var p struct {
			SessionID string `json:"sessionId"`
			Mode      string `json:"mode"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			e.modes[p.SessionID] = p.Mode
		}
	}
	close(e.changed)
	e.changed = make(chan struct{})
}

// Messages returns a copy of every message the server sent so far.
func (e *Client) Messages() []Message {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Message(nil), e.log...)
}

// Snapshot returns a copy of every message the server sent so far and a
// channel closed when the next one arrives.
func (e *Client) Snapshot() ([]Message, <-chan struct{}) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Message(nil), e.log...), e.changed
}

// Mode is the mode the status bar shows for a session ("" if never told).
func (e *Client) Mode(sessionID string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.modes[sessionID]
}

// Await blocks until cond holds for the messages received so far, re-checking
// on every new message, or ctx ends.
func (e *Client) Await(ctx context.Context, cond func([]Message) bool) error {
	for {
		e.mu.Lock()
		ok := cond(e.log)
		ch := e.changed
		e.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("await: %w", ctx.Err())
		}
	}
}

// idJSON is the JSON text of a request id.
func idJSON(id jsonrpc2.ID) string {
	if n, ok := id.Number(); ok {
		return strconv.FormatInt(n, 10)
	}
	if str, ok := id.StringValue(); ok {
		b, _ := json.Marshal(str) // a string always encodes
		return string(b)
	}
	return "null"
}

// Preempt records every message on the read loop, in the order the server
// sent it (as an editor shows streamed text), and takes the notifications;
// requests go on to handle, which answers them concurrently.
func (e *Client) Preempt(_ context.Context, req *jsonrpc2.Request) (any, error) {
	// The request views the connection's read buffer, which the next
	// message reuses: keep copies.
	params := json.RawMessage(append([]byte(nil), req.Params()...))
	msg := Message{Method: strings.Clone(req.Method()), Params: params, IsCall: req.IsCall()}
	if req.IsCall() {
		msg.ID = idJSON(req.ID())
	}
	if e.handlers.OnMessage != nil {
		e.handlers.OnMessage(msg)
	}
	e.record(msg)
	if !req.IsCall() {
		return struct{}{}, nil
	}
	return nil, jsonrpc2.ErrNotHandled
}

// handle answers the server's requests (Preempt recorded them).
func (e *Client) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	params := json.RawMessage(req.Params())
	if slices.Contains(e.handlers.Unanswered, req.Method()) {
		<-e.quit
		return nil, errors.New("lspclient: closed without answering")
	}
	switch req.Method() {
	case "workspace/applyEdit":
		var p struct {
			Edit json.RawMessage `json:"edit"`
		}
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, err
		}
		if e.handlers.ApplyEditResult != nil {
			return e.handlers.ApplyEditResult(p.Edit), nil
		}
		apply := e.handlers.ApplyEdit
		if apply == nil {
			apply = e.applyToDisk
		}
		ok, reason := apply(p.Edit)
		res := map[string]any{"applied": ok}
		if !ok {
			res["failureReason"] = reason
		}
		return res, nil
	case "agent/askUser":
		if e.handlers.AskUser != nil {
			defer e.readFor(ctx)()
			return e.handlers.AskUser(params), nil
		}
		return map[string]any{"dismissed": true}, nil
	case "window/showMessageRequest":
		if e.handlers.ShowMessageRequest != nil {
			defer e.readFor(ctx)()
			return e.handlers.ShowMessageRequest(params), nil
		}
		var p struct {
			Actions []json.RawMessage `json:"actions"`
		}
		if err := json.Unmarshal(params, &p); err != nil || len(p.Actions) == 0 {
			return nil, nil
		}
		return p.Actions[0], nil
	case "window/showDocument":
		return map[string]bool{"success": true}, nil
	case "window/workDoneProgress/create", "client/registerCapability":
		return nil, nil
	}
	if answer := e.handlers.Requests[req.Method()]; answer != nil {
		return answer(params)
	}
	return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "lspclient: %s", req.Method())
}

// readFor starts the person's reading of a question (Handlers.ReadFor);
// the returned func waits until it is over, the request is cancelled or
// the editor closes, whichever comes first.
func (e *Client) readFor(ctx context.Context) (wait func()) {
	if e.handlers.ReadFor <= 0 {
		return func() {}
	}
	read := time.NewTimer(e.handlers.ReadFor)
	return func() {
		defer read.Stop()
		select {
		case <-read.C:
		case <-ctx.Done():
		case <-e.quit:
		}
	}
}

// jsonCodec is encoding/json for the editor's own payloads.
type jsonCodec struct{}

func (jsonCodec) Marshal(v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return raw, nil
	}
	return json.Marshal(v)
}

func (jsonCodec) Unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
