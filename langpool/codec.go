package langpool

import (
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
)

// codec is plain encoding/json: the pool speaks to language servers with
// its own small wire structs (wire.go), raw messages passed through.
type codec struct{}

var _ jsonrpc2.Codec = codec{}

func (codec) Marshal(v any) ([]byte, error) {
	switch raw := v.(type) {
	case jsonrpc2.RawMessage:
		return raw, nil
	case json.RawMessage:
		return raw, nil
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
	return json.Unmarshal(data, v)
}
