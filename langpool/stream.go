package langpool

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/internal/lspwire"
)

// maxServerMessageBytes caps one message a language server sends: the
// largest real ones (a workspace's diagnostics, a big rename) are a few
// megabytes.
const maxServerMessageBytes = 64 << 20

// serverStream is jsonrpc2's stream to a language server, reading with a
// bound: a message declaring more than maxServerMessageBytes ends the
// connection (the client then ends the server, as if it crashed) instead
// of having agentls allocate what the server claims and wait for a body
// that may never come.
type serverStream struct {
	jsonrpc2.Stream // writes and Close
	in              *bufio.Reader
}

func newServerStream(rwc io.ReadWriteCloser) *serverStream {
	return &serverStream{Stream: jsonrpc2.NewStream(rwc), in: bufio.NewReader(rwc)}
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
