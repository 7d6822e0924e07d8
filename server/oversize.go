package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"

	"go.lsp.dev/jsonrpc2"
)

// idPrefixBytes is how much of an oversize body is kept to find its id.
const idPrefixBytes = 64 << 10

// drainBody reads and drops a body of length bytes, returning the request's
// id when the body's first idPrefixBytes show it (else the zero ID, which
// is sent as null).
func drainBody(r io.Reader, length int) (jsonrpc2.ID, error) {
	prefix := make([]byte, min(length, idPrefixBytes))
	if _, err := io.ReadFull(r, prefix); err != nil {
		return jsonrpc2.ID{}, unexpectedEOF(err)
	}
	if _, err := io.CopyN(io.Discard, r, int64(length-len(prefix))); err != nil {
		return jsonrpc2.ID{}, unexpectedEOF(err)
	}
	return requestID(prefix), nil
}

func unexpectedEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// requestID reads the "id" member of a JSON-RPC message from the start of
// its body, when the members before it end within prefix (they do for
// "jsonrpc", "id", "method" first, as clients write them). A number or a
// string is an id; anything else, or a prefix that ends first, is none.
func requestID(prefix []byte) jsonrpc2.ID {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return jsonrpc2.ID{}
	}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return jsonrpc2.ID{}
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return jsonrpc2.ID{}
		}
		if key != "id" {
			continue
		}
		var s string
		if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
			return jsonrpc2.NewStringID(s)
		}
		if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			return jsonrpc2.NewNumberID(n)
		}
		return jsonrpc2.ID{}
	}
	return jsonrpc2.ID{}
}
