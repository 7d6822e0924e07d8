package server

import (
	"context"
	"errors"
	"log/slog"

	"go.lsp.dev/jsonrpc2"
)

// tolerantStream keeps the connection alive across a malformed message.
// jsonrpc2 v1.0.1 ends the connection when a frame does not decode (invalid
// JSON, or JSON that is not a JSON-RPC message); LSP wants an error response
// and the next message. A frame-level error (a broken header, the end of the
// input) still ends the stream, since the framing cannot be trusted after it.
type tolerantStream struct {
	jsonrpc2.Stream
}

func (s tolerantStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		msg, n, err := s.Stream.Read(ctx)
		var rpcErr *jsonrpc2.Error
		if err == nil || !errors.As(err, &rpcErr) {
			return msg, n, err
		}
		slog.Warn("malformed message from the client", "err", err)
		if _, werr := s.Stream.Write(ctx, jsonrpc2.NewResponse(jsonrpc2.ID{}, nil, rpcErr)); werr != nil {
			return nil, 0, werr
		}
	}
}
