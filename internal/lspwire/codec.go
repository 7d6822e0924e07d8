package lspwire

import (
	"encoding/json"
	"reflect"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Codec is the jsonrpc2 codec of agentls's LSP connections: raw messages
// pass through as they are and everything else is encoding/json. With
// ProtocolTypes, go.lsp.dev/protocol values use the protocol package's own
// LSP-conformant JSON (its unions need it): the server's connection to the
// editor sets it; the pool of language servers speaks with its own small
// wire structs and does not.
type Codec struct{ ProtocolTypes bool }

var _ jsonrpc2.Codec = Codec{}

const protocolPkg = "go.lsp.dev/protocol"

// isProtocolValue reports whether v is (a pointer to or a slice of) a
// go.lsp.dev/protocol type.
func isProtocolValue(v any) bool {
	t := reflect.TypeOf(v)
	for t != nil && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice) {
		t = t.Elem()
	}
	return t != nil && t.PkgPath() == protocolPkg
}

// Marshal encodes v.
func (c Codec) Marshal(v any) ([]byte, error) {
	switch raw := v.(type) {
	case jsonrpc2.RawMessage:
		return raw, nil
	case json.RawMessage:
		return raw, nil
	}
	if c.ProtocolTypes && isProtocolValue(v) {
		return protocol.Marshal(v)
	}
	return json.Marshal(v)
}

// Unmarshal decodes data into v.
func (c Codec) Unmarshal(data []byte, v any) error {
	switch raw := v.(type) {
	case *jsonrpc2.RawMessage:
		*raw = append((*raw)[:0], data...)
		return nil
	case *json.RawMessage:
		*raw = append((*raw)[:0], data...)
		return nil
	}
	if c.ProtocolTypes && isProtocolValue(v) {
		return protocol.Unmarshal(data, v)
	}
	return json.Unmarshal(data, v)
}
