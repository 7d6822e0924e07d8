package server

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/agentproto"
)

// FuzzParamsOfTable: any payload for any request of agentproto's table
// either decodes into its params type or is -32602 saying what is wrong in
// the user's terms, never in Go's (type names, packages), and never
// panics.
func FuzzParamsOfTable(f *testing.F) {
	for _, seed := range []string{`{}`, `null`, `[]`, `{"sessionId": 7}`, `{"context": {"range": {"start": {"line": "x"}}}}`,
		`{"answers": [1]}`, `{"mode": {}}`, `{"limit": 1.5}`, `{"what": true}`, `"text"`, `{"sessionId": "a"`} {
		f.Add(seed)
	}
	var types []reflect.Type
	for _, m := range agentproto.Table() {
		if m.Direction == agentproto.ClientRequest {
			types = append(types, m.Params)
		}
	}
	f.Fuzz(func(t *testing.T, raw string) {
		for _, typ := range types {
			err := decodeParams(jsonrpc2.RawMessage(raw), reflect.New(typ).Interface())
			if err == nil {
				continue
			}
			var je *jsonrpc2.Error
			if !errors.As(err, &je) || je.Code != jsonrpc2.InvalidParams {
				t.Fatalf("%s of %q: %v, want -32602", typ.Name(), raw, err)
			}
			for _, leak := range []string{"agentproto", "Go value", "struct", "json:", "RawMessage"} {
				if strings.Contains(je.Message, leak) {
					t.Fatalf("%s of %q: %q speaks Go (%s)", typ.Name(), raw, je.Message, leak)
				}
			}
		}
	})
}
