package langpool

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/internal/lspwire"
)

// maxServerMessageBytes caps one message a language server sends: the
// largest real ones (a workspace's diagnostics, a big rename) are a few
// megabytes.
const maxServerMessageBytes = 64 << 20

// writeTimeout bounds one message's write to a language server: a server
// that reads none of it for so long (alive but stuck, its input pipe full)
// is ended.
const writeTimeout = 5 * time.Second

// serverStream is jsonrpc2's stream to a language server, reading and
// writing with bounds: a message declaring more than maxServerMessageBytes
// ends the connection (the client then ends the server, as if it crashed)
// instead of having agentls allocate what the server claims and wait for a
// body that may never come; a write the server does not take within
// writeTimeout, or whose context ends first, fails and calls stalled (the
// message may be cut: the client ends the server, which starts again at
// the next question).
type serverStream struct {
	jsonrpc2.Stream // Close, and framing of the writes
	in              *bufio.Reader
	out             deadliner
	stalled         func(error)
	// writing holds one write at a time (its deadline is the pipe's): a
	// writer waits for it only as long as its context lasts.
	writing chan struct{}
}

// deadliner is a writer whose writes can be cut short (an *os.File pipe).
type deadliner interface {
	SetWriteDeadline(t time.Time) error
}

// newServerStream makes the stream over rwc; out bounds its writes (nil:
// unbounded), stalled is told of a write that failed.
func newServerStream(rwc io.ReadWriteCloser, out deadliner, stalled func(error)) *serverStream {
	return &serverStream{Stream: jsonrpc2.NewStream(rwc), in: bufio.NewReader(rwc), out: out, stalled: stalled, writing: make(chan struct{}, 1)}
}

// Write writes msg within writeTimeout and ctx.
func (s *serverStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	select {
	case s.writing <- struct{}{}:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	defer func() { <-s.writing }()
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if s.out == nil {
		return s.Stream.Write(ctx, msg)
	}
	_ = s.out.SetWriteDeadline(time.Now().Add(writeTimeout))
	// ctx ending cuts the write short. Watched only during the write: a
	// response's ctx is jsonrpc2's request, reused once answered (so not
	// context.AfterFunc, whose watch may outlive the write).
	var n int64
	var err error
	if done := ctx.Done(); done != nil {
		finished, watched := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(watched)
			select {
			case <-done:
				_ = s.out.SetWriteDeadline(time.Now())
			case <-finished:
			}
		}()
		n, err = s.Stream.Write(ctx, msg)
		close(finished)
		<-watched
	} else {
		n, err = s.Stream.Write(ctx, msg)
	}
	if err == nil {
		return n, nil
	}
	if n == 0 && ctx.Err() != nil {
		return 0, ctx.Err() // nothing sent: the stream is whole
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		if ctx.Err() != nil {
			err = fmt.Errorf("write cut short: %w", ctx.Err())
		} else {
			err = fmt.Errorf("the language server did not take a message within %v: %w", writeTimeout, errStuck)
		}
	}
	if s.stalled != nil {
		s.stalled(err)
	}
	return n, err
}

// Read reads the next message.
func (s *serverStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	length, header, err := lspwire.ReadFrameHeader(s.in)
	if err != nil {
		return nil, 0, err
	}
	if length > maxServerMessageBytes {
		return nil, 0, fmt.Errorf("the language server sent a message of %d bytes, over the %d MiB cap", length, maxServerMessageBytes>>20)
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(s.in, body); err != nil {
		return nil, 0, fmt.Errorf("read a message body: %w", err)
	}
	msg, err := jsonrpc2.DecodeMessage(body)
	return msg, int64(header + length), err
}
