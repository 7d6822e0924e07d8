package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
)

// maxLineBytes caps one incoming message, under the SDK reader's own cap
// (10 MB, beyond which it stops the whole connection): the wire answers a
// longer line with an error instead.
const maxLineBytes = 10<<20 - 64<<10

// wire sits between stdio and the SDK's connection. On the way in it answers
// what the SDK would only log (a line that is not JSON, a message that is
// not a JSON-RPC request, an oversized line) with a JSON-RPC error, so a
// client always hears back, and it takes the responses to the requests it
// sent itself. On the way out it writes whole lines, one at a time.
type wire struct {
	in  io.Reader
	out *lineWriter
	// sdkIn is what the SDK reads: the lines the wire let through.
	sdkIn  *io.PipeReader
	toSDK  *io.PipeWriter
	nextID atomic.Uint64

	mu      sync.Mutex
	pending map[string]chan rawResponse // own requests by id

	// replies carries the reader's own answers (to lines it refused) to
	// the goroutine that queues them (replyLoop): the reader never waits
	// on the output, so it sees the input's end even while the client
	// reads nothing.
	replies chan []byte

	// own are the requests the wire answers itself (own_methods.go), set
	// before the input is read; ownCtx is their context; serving counts
	// the ones running.
	init    initPatch
	own     map[string]ownHandler
	ownCtx  context.Context
	serving sync.WaitGroup

	// prompts tells a withdrawn prompt from a superseded one
	// (prompt_withdrawn.go).
	prompts promptIDs
}

// rawResponse is a JSON-RPC response to one of the wire's own requests.
type rawResponse struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func newWire(in io.Reader, out io.Writer) *wire {
	pr, pw := io.Pipe()
	w := &wire{in: in, out: newLineWriter(out), sdkIn: pr, toSDK: pw, pending: map[string]chan rawResponse{}, replies: make(chan []byte, replyQueueLen)}
	w.out.rewrite = w.init.rewrite
	return w
}

// replyQueueLen is how many of the reader's own answers may wait for the
// output; past it (a client that sends bad lines and reads nothing) they
// are dropped with a log line.
const replyQueueLen = 256

// outQueueLen is how many whole lines may wait for the connection's writer.
const outQueueLen = 64

// lineWriter is the connection's one writer: whole lines go through a
// bounded queue to its goroutine (run), the only one that writes the
// output, so no lock is held across a write and lines stay whole and in
// order. A sender with a context (send) stops waiting when it ends, even
// while the client reads nothing and the queue is full: a client that stops
// reading cannot hold a cancelled turn.
type lineWriter struct {
	w     io.Writer
	lines chan []byte
	// rewrite, when set, completes each of the SDK's lines (initPatch).
	rewrite func([]byte) []byte
	// stopping is closed when Serve begins to stop: senders stop waiting
	// for room (what fits in the queue still goes out).
	stopping chan struct{}
	// closed is closed after the agent stopped: run writes what is queued
	// and returns.
	closed chan struct{}
	// ran is closed when run has returned.
	ran chan struct{}

	stopOnce, closeOnce sync.Once
}

func newLineWriter(w io.Writer) *lineWriter {
	return &lineWriter{w: w, lines: make(chan []byte, outQueueLen), stopping: make(chan struct{}), closed: make(chan struct{}), ran: make(chan struct{})}
}

// errWriterStopped is a line not sent because the connection is stopping.
var errWriterStopped = errors.New("the client connection is closing")

// send queues one whole line (ending in a newline) and returns without
// waiting for it to be written. When the queue is full it waits for room
// until ctx ends or the connection stops.
func (l *lineWriter) send(ctx context.Context, line []byte) error {
	select {
	case l.lines <- line: // room: queued even when ctx has just ended
		return nil
	default:
	}
	select {
	case l.lines <- line:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-l.stopping:
		return errWriterStopped
	}
}

// Write queues p, one whole line, for the SDK (its connection writes each
// message with one Write). The SDK's writes have no context: when the queue
// is full and the client does not read, they block until it reads again or
// Serve stops. They are its answers and its requests (permission, files,
// terminals); a turn's own updates go through send and never wait on them.
func (l *lineWriter) Write(p []byte) (int, error) {
	line := append([]byte(nil), p...)
	if l.rewrite != nil {
		line = l.rewrite(line)
	}
	if err := l.send(context.Background(), line); err != nil {
		return 0, err
	}
	return len(p), nil
}

// run writes the queued lines in order until close, then the lines still
// queued. After a failed write it drops the rest (the client is gone).
func (l *lineWriter) run() {
	defer close(l.ran)
	var failed error
	write := func(line []byte) {
		if failed != nil {
			return
		}
		if _, err := l.w.Write(line); err != nil {
			failed = err
			slog.Info("acp: write failed; dropping the output from here on", "err", err)
		}
	}
	for {
		select {
		case line := <-l.lines:
			write(line)
		case <-l.closed:
			for {
				select {
				case line := <-l.lines:
					write(line)
				default:
					return
				}
			}
		}
	}
}

// stop makes every waiting sender give up (Serve is stopping).
func (l *lineWriter) stop() { l.stopOnce.Do(func() { close(l.stopping) }) }

// close ends run once it has written what is queued.
func (l *lineWriter) close() {
	l.stop()
	l.closeOnce.Do(func() { close(l.closed) })
}

// pump reads the client's lines until the input ends, then closes the SDK's
// input. Its own answers go through replyLoop, which it starts and ends.
func (w *wire) pump() {
	replied := make(chan struct{})
	go func() {
		defer close(replied)
		w.replyLoop()
	}()
	defer func() {
		close(w.replies)
		<-replied
	}()
	r := bufio.NewReaderSize(w.in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if tooLong {
			w.refuseOversize(line) // oversize.go: line is the head of the message
		} else if len(line) > 0 {
			w.route(line)
		}
		if tooLong || cap(line) > releaseOverBytes {
			// Hand the line's memory back to the OS now: a client's one
			// large line must not keep tens of MB resident.
			line = nil
			debug.FreeOSMemory()
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				slog.Info("acp: input ended", "err", err)
			}
			_ = w.toSDK.Close()
			w.failPending()
			return
		}
	}
}

// releaseOverBytes is the size of a line after which the reader returns
// its memory to the OS.
const releaseOverBytes = 4 << 20

// readLine reads one line (without its newline). A line over maxLineBytes is
// consumed and reported as tooLong, with its first sniffBytes as line.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > maxLineBytes {
				tooLong = true
				line = append(make([]byte, 0, sniffBytes), line[:min(len(line), sniffBytes)]...)
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if n := len(line); n > 0 && line[n-1] == '\n' && !tooLong {
			line = line[:n-1]
		}
		return line, tooLong, err
	}
}

// envelope is what the wire reads of a message to route it. Result and
// Error are not pointers: a pointer is left nil by `"result": null`, a
// valid answer (CodeCompanion.nvim and avante.nvim answer
// fs/write_text_file so), which then read as a message without a method.
type envelope struct {
	JSONRPC json.RawMessage  `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id"`
	Method  json.RawMessage  `json:"method"`
	Result  json.RawMessage  `json:"result"`
	Error   json.RawMessage  `json:"error"`
}

// route answers a bad line or hands a good one to the SDK (or to the own
// request it answers).
func (w *wire) route(line []byte) {
	trimmed := trimSpace(line)
	if len(trimmed) == 0 {
		return
	}
	if !json.Valid(trimmed) {
		slog.Warn("acp: a line that is not JSON was answered with a parse error", "bytes", len(trimmed))
		w.replyError(nil, -32700, "Parse error: the line is not valid JSON (ACP sends one JSON-RPC message per line)")
		return
	}
	if trimmed[0] == '[' {
		w.refuseBatch(trimmed)
		return
	}
	var env envelope
	if trimmed[0] != '{' || json.Unmarshal(trimmed, &env) != nil {
		w.replyError(nil, -32600, "Invalid request: a message must be one JSON-RPC object")
		return
	}
	id := env.ID
	if id != nil && string(*id) == "null" {
		id = nil
	}
	var method string
	hasMethod := len(env.Method) > 0 && string(env.Method) != "null"
	if hasMethod && json.Unmarshal(env.Method, &method) != nil {
		w.replyError(id, -32600, `Invalid request: "method" must be a string`)
		return
	}
	switch {
	case !hasMethod && id != nil && (len(env.Result) > 0 || len(env.Error) > 0):
		if w.deliver(*id, trimmed) {
			return
		}
	case method == "":
		w.replyError(id, -32600, "Invalid request: the message has no method")
		return
	case string(env.JSONRPC) != `"2.0"`:
		if id != nil {
			w.replyError(id, -32600, `Invalid request: "jsonrpc" must be "2.0"`)
		}
		return
	}
	if method == "initialize" && id != nil {
		w.init.sawInitialize(*id, trimmed)
	}
	if method == "session/prompt" && id != nil {
		if problem := promptBlocksProblem(trimmed); problem != "" { // prompt_blocks.go
			w.replyError(id, -32602, problem)
			return
		}
		w.prompts.routed(*id, trimmed) // prompt_withdrawn.go
	}
	if method == "$/cancel_request" && id == nil {
		w.prompts.cancelRequested(trimmed) // then the SDK cancels the request's context
	}
	if h, ok := w.own[method]; ok && id != nil {
		var p struct {
			Params json.RawMessage `json:"params"`
		}
		_ = json.Unmarshal(trimmed, &p)
		w.serveOwn(w.ownCtx, *id, method, p.Params, h)
		return
	}
	if _, err := w.toSDK.Write(append(trimmed, '\n')); err != nil {
		slog.Info("acp: connection closed", "err", err)
	}
}

// refuseBatch answers each element of a batch (ACP does not take them) with
// -32600 and the element's own id (null when it has none), as JSON-RPC
// answers an invalid batch; an empty batch gets one answer.
func (w *wire) refuseBatch(batch []byte) {
	const msg = "Invalid request: batches are not supported; send each JSON-RPC message on its own line"
	var elems []json.RawMessage
	if json.Unmarshal(batch, &elems) != nil || len(elems) == 0 {
		w.replyError(nil, -32600, msg)
		return
	}
	slog.Warn("acp: a batch was refused", "messages", len(elems))
	for _, e := range elems {
		var env struct {
			ID *json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(e, &env)
		id := env.ID
		if id != nil && string(*id) == "null" {
			id = nil
		}
		w.replyError(id, -32600, msg)
	}
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r' || b[len(b)-1] == '\n') {
		b = b[:len(b)-1]
	}
	return b
}

// replyError answers a line the reader refused with a JSON-RPC error (id
// nil: null). It hands the answer to replyLoop and never waits: when
// replyQueueLen answers already wait for a client that reads nothing, this
// one is dropped.
func (w *wire) replyError(id *json.RawMessage, code int, msg string) {
	var idv any
	if id != nil {
		idv = id
	}
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": idv, "error": map[string]any{"code": code, "message": msg}})
	if err != nil {
		slog.Error("acp: encode error answer", "err", err)
		return
	}
	select {
	case w.replies <- append(b, '\n'):
	default:
		slog.Warn("acp: the client reads nothing; an error answer was dropped", "message", msg)
	}
}

// replyLoop queues the reader's answers for the output, in order, until
// the reader closes replies. Like the SDK's answers each waits for room in
// the output queue until Serve stops.
func (w *wire) replyLoop() {
	for line := range w.replies {
		if err := w.out.send(context.Background(), line); err != nil {
			slog.Debug("acp: answer not sent", "err", err)
		}
	}
}

// writeMessage queues one message; it waits for room in the queue only
// until ctx ends (see lineWriter.send).
func (w *wire) writeMessage(ctx context.Context, msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		slog.Error("acp: encode message", "err", err)
		return fmt.Errorf("encode message: %w", err)
	}
	if err := w.out.send(ctx, append(b, '\n')); err != nil {
		slog.Debug("acp: message not sent", "err", err)
		return err
	}
	return nil
}

// ownIDBase is where the ids of the wire's own requests start: numbers, as
// the SDK's (clients that take a request id for a number read them too),
// far above the SDK's, which count from 1.
const ownIDBase = 1_000_000_000

// ownKey is the pending key of a response's id when it is one of the
// wire's own (a number from ownIDBase up; a client may echo it as 1e9).
func ownKey(id json.RawMessage) (string, bool) {
	var f float64
	if json.Unmarshal(id, &f) != nil || f < ownIDBase || f >= 1<<53 || f != float64(uint64(f)) {
		return "", false
	}
	return strconv.FormatUint(uint64(f), 10), true
}

// deliver hands a response to the own request it answers.
func (w *wire) deliver(id json.RawMessage, line []byte) bool {
	key, ok := ownKey(id)
	if !ok {
		return false
	}
	w.mu.Lock()
	ch, ok := w.pending[key]
	delete(w.pending, key)
	w.mu.Unlock()
	if !ok {
		return false
	}
	var res rawResponse
	if err := json.Unmarshal(line, &res); err != nil {
		res.Error = &struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		}{Code: -32603, Message: "undecodable response: " + err.Error()}
	}
	ch <- res
	return true
}

// call sends a request the SDK cannot express (see unstable.go) and waits for
// answeredError is the client's error response to a request of agentls's
// (wire.call): the client answered that it could not do it, as opposed to
// an answer that did not decode, a send that failed or no answer.
type answeredError struct {
	method string
	code   int
	msg    string
}

func (e *answeredError) Error() string {
	return fmt.Sprintf("the client answered %s with error %d: %s", e.method, e.code, e.msg)
}

// its result; on ctx's end it tells the client ($/cancel_request) and returns.
func (w *wire) call(ctx context.Context, method string, params any, result any) error {
	n := ownIDBase + w.nextID.Add(1)
	id := strconv.FormatUint(n, 10)
	ch := make(chan rawResponse, 1)
	w.mu.Lock()
	if w.pending == nil {
		w.mu.Unlock()
		return errors.New("the client connection is closed")
	}
	w.pending[id] = ch
	w.mu.Unlock()
	if err := w.writeMessage(ctx, map[string]any{"jsonrpc": "2.0", "id": n, "method": method, "params": params}); err != nil {
		w.forget(id)
		return fmt.Errorf("send %s: %w", method, err)
	}
	select {
	case res, ok := <-ch:
		if !ok {
			return errors.New("the client connection closed before it answered")
		}
		if res.Error != nil {
			msg := res.Error.Message
			var data struct {
				Error string `json:"error"`
			}
			if json.Unmarshal(res.Error.Data, &data) == nil && data.Error != "" {
				msg += ": " + data.Error // the SDK's internal errors carry the detail here
			}
			return &answeredError{method: method, code: res.Error.Code, msg: msg}
		}
		if result != nil && len(res.Result) > 0 {
			if err := json.Unmarshal(res.Result, result); err != nil {
				return fmt.Errorf("decode the client's %s result: %w", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		w.forget(id)
		// ctx has ended: the notice goes out when there is room, else it is
		// dropped (a client that reads nothing has not read the request either).
		_ = w.writeMessage(ctx, map[string]any{"jsonrpc": "2.0", "method": "$/cancel_request", "params": map[string]any{"requestId": n}})
		return ctx.Err()
	}
}

// forget drops an own request that is no longer waited for.
func (w *wire) forget(id string) {
	w.mu.Lock()
	delete(w.pending, id)
	w.mu.Unlock()
}

// failPending ends every own request once the input is gone.
func (w *wire) failPending() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for id, ch := range w.pending {
		close(ch)
		delete(w.pending, id)
	}
	w.pending = nil
}
