package server

import (
	"encoding/json"
	"reflect"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// codec encodes go.lsp.dev/protocol types with the protocol package's own
// LSP-conformant JSON (its unions need it) and everything else (agentls's
// own payloads, with encoding/json tags) with encoding/json.
type codec struct{}

var _ jsonrpc2.Codec = codec{}

const protocolPkg = "go.lsp.dev/protocol"

func isProtocolValue(v any) bool {
	t := reflect.TypeOf(v)
	for t != nil && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice) {
		t = t.Elem()
	}
	return t != nil && t.PkgPath() == protocolPkg
}

func (codec) Marshal(v any) ([]byte, error) {
	switch raw := v.(type) {
	case jsonrpc2.RawMessage:
		return raw, nil
	case json.RawMessage:
		return raw, nil
	}
	if isProtocolValue(v) {
		return protocol.Marshal(v)
	}
	return json.Marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	switch raw := v.(type) {
	case *jsonrpc2.RawMessage:
		*raw = append((*raw)[:0], data...)
		return nil
	case *json.RawMessage:
		*raw = append((*raw)[:0], data...)
		return nil
	}
	if isProtocolValue(v) {
		return protocol.Unmarshal(data, v)
	}
	return json.Unmarshal(data, v)
}
