package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
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
	return &wire{in: in, out: &lineWriter{w: out}, sdkIn: pr, toSDK: pw, pending: map[string]chan rawResponse{}}
}

// lineWriter serialises writes: each Write is one whole message line.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// pump reads the client's lines until the input ends, then closes the SDK's
// input.
func (w *wire) pump() {
	r := bufio.NewReaderSize(w.in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if tooLong {
			slog.Warn("acp: message over the size cap dropped", "cap_bytes", maxLineBytes)
			w.replyError(nil, -32600, fmt.Sprintf("Invalid request: the message is over %d KB; it was dropped", maxLineBytes>>10))
		} else if len(line) > 0 {
			w.route(line)
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

// readLine reads one line (without its newline). A line over maxLineBytes is
// consumed and reported as tooLong.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > maxLineBytes {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		return line, tooLong, err
	}
}

// envelope is what the wire reads of a message to route it.
type envelope struct {
	JSONRPC json.RawMessage  `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id"`
	Method  *string          `json:"method"`
	Result  *json.RawMessage `json:"result"`
	Error   *json.RawMessage `json:"error"`
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
	var env envelope
	if trimmed[0] != '{' || json.Unmarshal(trimmed, &env) != nil {
		w.replyError(nil, -32600, "Invalid request: a message must be one JSON-RPC object (batches are not supported)")
		return
	}
	id := env.ID
	if id != nil && string(*id) == "null" {
		id = nil
	}
	switch {
	case env.Method == nil && id != nil && (env.Result != nil || env.Error != nil):
		if w.deliver(*id, trimmed) {
			return
		}
	case env.Method == nil || *env.Method == "":
		w.replyError(id, -32600, "Invalid request: the message has no method")
		return
	case string(env.JSONRPC) != `"2.0"`:
		if id != nil {
			w.replyError(id, -32600, `Invalid request: "jsonrpc" must be "2.0"`)
		}
		return
	}
	if _, err := w.toSDK.Write(append(trimmed, '\n')); err != nil {
		slog.Info("acp: connection closed", "err", err)
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

// replyError writes a JSON-RPC error response (id nil: null).
func (w *wire) replyError(id *json.RawMessage, code int, msg string) {
	var idv any
	if id != nil {
		idv = id
	}
	w.writeMessage(map[string]any{"jsonrpc": "2.0", "id": idv, "error": map[string]any{"code": code, "message": msg}})
}

func (w *wire) writeMessage(msg any) {
	b, err := json.Marshal(msg)
	if err != nil {
		slog.Error("acp: encode message", "err", err)
		return
	}
	if _, err := w.out.Write(append(b, '\n')); err != nil {
		slog.Info("acp: write failed", "err", err)
	}
}

// ownIDPrefix marks the ids of the wire's own requests (the SDK numbers its
// requests, so the two never meet).
const ownIDPrefix = "agentls-"

// deliver hands a response to the own request it answers.
func (w *wire) deliver(id json.RawMessage, line []byte) bool {
	var key string
	if json.Unmarshal(id, &key) != nil {
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
// its result; on ctx's end it tells the client ($/cancel_request) and returns.
func (w *wire) call(ctx context.Context, method string, params any, result any) error {
	id := ownIDPrefix + strconv.FormatUint(w.nextID.Add(1), 10)
	ch := make(chan rawResponse, 1)
	w.mu.Lock()
	if w.pending == nil {
		w.mu.Unlock()
		return errors.New("the client connection is closed")
	}
	w.pending[id] = ch
	w.mu.Unlock()
	w.writeMessage(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	select {
	case res, ok := <-ch:
		if !ok {
			return errors.New("the client connection closed before it answered")
		}
		if res.Error != nil {
			return fmt.Errorf("the client answered %s with error %d: %s", method, res.Error.Code, res.Error.Message)
		}
		if result != nil && len(res.Result) > 0 {
			if err := json.Unmarshal(res.Result, result); err != nil {
				return fmt.Errorf("decode the client's %s result: %w", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		w.mu.Lock()
		delete(w.pending, id)
		w.mu.Unlock()
		w.writeMessage(map[string]any{"jsonrpc": "2.0", "method": "$/cancel_request", "params": map[string]any{"requestId": id}})
		return ctx.Err()
	}
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
