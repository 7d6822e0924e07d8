package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"strconv"
	"sync"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/internal/lspwire"
)

// DefaultMaxMessageBytes is the default cap on one incoming message's body
// (the --max-message-mb flag).
const DefaultMaxMessageBytes = 64 << 20

const (
	// reusedBodyCap is the largest body read into the stream's reused buffer;
	// a larger one gets its own buffer, dropped after use.
	reusedBodyCap = 1 << 20
	// writeQueueLen is how many outgoing frames may wait for the writer.
	writeQueueLen = 64
	// maxDeclaredBody is the largest Content-Length read at all: a larger
	// one is a framing error (draining it would swallow the input for good).
	maxDeclaredBody = 1 << 30
)

// frameStream is the LSP base protocol (Content-Length framed JSON-RPC) with
// agentls's limits and failure handling, replacing jsonrpc2's header stream:
//   - a body over the size cap is read and dropped (its length is known, so
//     the stream stays in sync) and answered with an error whose id is null;
//   - a message that does not decode (invalid JSON, not JSON-RPC) is answered
//     with an error and the next one is read (jsonrpc2 would end the
//     connection);
//   - a body over reusedBodyCap gets a buffer of its own, and the memory is
//     handed back to the OS after it (a reused buffer would keep the
//     process at its largest message for good);
//   - a broken header ends the stream with a *lspwire.FrameError;
//   - every Write honours its context, also while the client is not reading:
//     frames go through a queue to one writer goroutine, and a caller whose
//     context ends stops waiting (a frame not yet started is dropped).
type frameStream struct {
	conn    io.ReadWriteCloser
	in      *bufio.Reader
	maxBody int
	body    []byte // reused for bodies up to reusedBodyCap
	// releaseDue counts the reads left that hand memory back to the OS after
	// a large body (two: the handler of the large message may still hold it
	// at the first).
	releaseDue int

	want chan struct{}   // Read asks readLoop for a message
	got  chan readResult // readLoop's answer

	queue     chan *outFrame
	closed    chan struct{}
	closeOnce sync.Once

	// written, if set (before the first Write), is told each message's body
	// once it is written or given up on (reply_order.go).
	written func(body []byte)
}

// outFrame is one framed message waiting for the writer.
type outFrame struct {
	ctx  context.Context
	data []byte
	done chan error
}

// newFrameStream starts a stream over conn; maxBody <= 0 means
// DefaultMaxMessageBytes. Close stops its writer.
func newFrameStream(conn io.ReadWriteCloser, maxBody int) *frameStream {
	if maxBody <= 0 {
		maxBody = DefaultMaxMessageBytes
	}
	s := &frameStream{
		conn:    conn,
		in:      bufio.NewReader(conn),
		maxBody: maxBody,
		want:    make(chan struct{}),
		got:     make(chan readResult, 1),
		queue:   make(chan *outFrame, writeQueueLen),
		closed:  make(chan struct{}),
	}
	go s.readLoop()  // ends at the input's end or error, or Close
	go s.writeLoop() // ends at Close
	return s
}

var _ jsonrpc2.Stream = (*frameStream)(nil)

// readResult is one message read by the reader goroutine.
type readResult struct {
	msg jsonrpc2.Message
	n   int64
	err error
}

// Read returns the next message, or ctx's error as soon as ctx ends (the
// server stops without waiting for the client's next byte). Oversize and
// undecodable messages are answered and skipped.
func (s *frameStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	select {
	case s.want <- struct{}{}:
	case <-ctx.Done():
		return nil, 0, ctx.Err()
	case <-s.closed:
		return nil, 0, io.ErrClosedPipe
	}
	select {
	case r := <-s.got:
		return r.msg, r.n, r.err
	case <-ctx.Done():
		return nil, 0, ctx.Err()
	}
}

// readLoop reads one message each time Read asks for one (a decoded message
// borrows the body buffer, so the next one may only be read when the
// previous one is done with), until the input fails or Close.
func (s *frameStream) readLoop() {
	for {
		select {
		case <-s.want:
		case <-s.closed:
			return
		}
		msg, n, err := s.readMessage()
		s.got <- readResult{msg, n, err}
		if err != nil {
			return
		}
	}
}

// readMessage reads the next message from the input.
func (s *frameStream) readMessage() (jsonrpc2.Message, int64, error) {
	ctx := context.Background() // for the answers to invalid messages
	for {
		if s.releaseDue > 0 {
			s.releaseDue--
			s.body = nil
			debug.FreeOSMemory()
		}
		length, headerLen, err := lspwire.ReadFrameHeader(s.in)
		if err != nil {
			return nil, 0, err
		}
		if length > maxDeclaredBody {
			return nil, 0, &lspwire.FrameError{Reason: fmt.Sprintf("Content-Length %d is over the 1 GiB a message may declare", length)}
		}
		if length > s.maxBody {
			// Logged before draining: a body shorter than declared swallows
			// the messages after it, and this line says why.
			slog.Warn("message over the size cap: reading and dropping it", "bytes", length, "capBytes", s.maxBody)
			id, err := drainBody(s.in, length)
			if err != nil {
				return nil, 0, fmt.Errorf("read an oversize message: %w", err)
			}
			msg := fmt.Sprintf("message of %d bytes is over the %d MB cap (agentls --max-message-mb); it was dropped", length, s.maxBody>>20)
			if _, err := s.Write(ctx, jsonrpc2.NewResponse(id, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, msg))); err != nil {
				return nil, 0, err
			}
			continue
		}
		var body []byte
		if length <= reusedBodyCap {
			if cap(s.body) < length {
				s.body = make([]byte, reusedBodyCap)
			}
			body = s.body[:length]
		} else {
			body = make([]byte, length)
			s.releaseDue = 2
		}
		if _, err := io.ReadFull(s.in, body); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, 0, err
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err != nil {
			var rpcErr *jsonrpc2.Error
			if !errors.As(err, &rpcErr) {
				rpcErr = jsonrpc2.NewError(jsonrpc2.ParseError, err.Error())
			}
			slog.Warn("malformed message from the client", "err", err)
			id, kind := invalidMessageID(body) // invalid_message.go
			if kind == invalidResponse {
				// Ends the server's request it answers, with the reason.
				return jsonrpc2.NewResponse(id, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest,
					"the editor's reply is not valid JSON-RPC: "+rpcErr.Message)), int64(headerLen + length), nil
			}
			if err := s.answerInvalid(ctx, id, rpcErr); err != nil {
				return nil, 0, err
			}
			continue
		}
		return msg, int64(headerLen + length), nil
	}
}

// answerInvalid answers an invalid message with id (the zero ID, sent as
// null, when the message shows none).
func (s *frameStream) answerInvalid(ctx context.Context, id jsonrpc2.ID, rpcErr *jsonrpc2.Error) error {
	_, err := s.Write(ctx, jsonrpc2.NewResponse(id, nil, rpcErr))
	return err
}

// Write frames msg and waits until the writer has written it, or ctx ends,
// or the stream is closed.
func (s *frameStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	body, err := jsonrpc2.EncodeMessage(msg)
	if err != nil {
		return 0, fmt.Errorf("encode message: %w", err)
	}
	if s.written != nil {
		defer s.written(body) // written or given up on: nothing waits longer for it
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	data := make([]byte, 0, len(body)+32)
	data = append(data, "Content-Length: "...)
	data = strconv.AppendInt(data, int64(len(body)), 10)
	data = append(data, "\r\n\r\n"...)
	data = append(data, body...)
	f := &outFrame{ctx: ctx, data: data, done: make(chan error, 1)}
	select {
	case s.queue <- f:
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-s.closed:
		return 0, io.ErrClosedPipe
	}
	select {
	case err := <-f.done:
		if err != nil {
			return 0, err
		}
		return int64(len(data)), nil
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-s.closed:
		return 0, io.ErrClosedPipe
	}
}

// writeLoop writes the queued frames in order until Close. A frame whose
// context ended before its turn is dropped; once started, a frame is written
// whole (the framing depends on it).
func (s *frameStream) writeLoop() {
	for {
		select {
		case <-s.closed:
			return
		case f := <-s.queue:
			if err := f.ctx.Err(); err != nil {
				f.done <- err
				continue
			}
			_, err := s.conn.Write(f.data)
			f.done <- err
		}
	}
}

// Close closes the connection and stops the writer. A writer blocked on a
// client that does not read ends when the connection's Close unblocks it
// (for stdio, with the process).
func (s *frameStream) Close() error {
	var err error
	s.closeOnce.Do(func() {
		close(s.closed)
		err = s.conn.Close()
	})
	return err
}
