package server

import (
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
)

// invalidKind is what a message that is JSON but not valid JSON-RPC looks
// like it was meant to be.
type invalidKind int

const (
	// invalidUnknown: no usable id, or neither a call nor a reply.
	invalidUnknown invalidKind = iota
	// invalidCall: a request (it has a method and an id): answered with its id.
	invalidCall
	// invalidResponse: a reply to one of the server's requests (an id, a
	// result or an error, no method): it ends that request with an error.
	invalidResponse
)

// invalidMessageID reads the id of a message that failed to decode as
// JSON-RPC (a wrong or missing "jsonrpc" member, say) and what it was meant
// to be. Only a number or a string is an id, as requestID reads them; a
// body that is not a JSON object has none.
func invalidMessageID(body []byte) (jsonrpc2.ID, invalidKind) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(body, &m); err != nil || len(m.ID) == 0 {
		return jsonrpc2.ID{}, invalidUnknown
	}
	id := requestID([]byte(`{"id":` + string(m.ID) + `}`)) // oversize.go
	if id == (jsonrpc2.ID{}) {
		return id, invalidUnknown
	}
	switch {
	case len(m.Method) > 0 && string(m.Method) != "null":
		return id, invalidCall
	case len(m.Result) > 0 || len(m.Error) > 0:
		return id, invalidResponse
	}
	return jsonrpc2.ID{}, invalidUnknown
}
