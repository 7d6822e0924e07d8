package acp

import (
	"encoding/json"
	"testing"
)

// FuzzHeadEnvelope: reading the envelope from a line's start never panics,
// and for a whole message it reads what decoding the message reads (the
// id, unless null, and a string method).
func FuzzHeadEnvelope(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":50,"method":"session/list","params":{"x":"aaaa`,
		`{"jsonrpc":"2.0","id":"a","result":{"content":"x"}}`,
		`{"id":null,"method":7}`, `["x"]`, `{"params":{`, `{"id":1e9,"error":{}}`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		id, method, hasMethod, ok := headEnvelope(head)
		var whole struct {
			ID     json.RawMessage `json:"id"`
			Method json.RawMessage `json:"method"`
		}
		if !ok || json.Unmarshal(head, &whole) != nil {
			return
		}
		var dup map[string]json.RawMessage // duplicate keys: the last wins in both
		if json.Unmarshal(head, &dup) != nil {
			return
		}
		wantID := whole.ID
		if string(wantID) == "null" {
			wantID = nil
		}
		if string(compact(id)) != string(compact(wantID)) {
			t.Errorf("id %s, want %s", id, wantID)
		}
		var m string
		if want := json.Unmarshal(whole.Method, &m) == nil && whole.Method != nil; hasMethod != want || hasMethod && m != method {
			t.Errorf("method %q (%v), want %s", method, hasMethod, whole.Method)
		}
	})
}

func compact(raw json.RawMessage) []byte {
	if raw == nil {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	b, _ := json.Marshal(v)
	return b
}

func TestHeadEnvelopeOfACutLine(t *testing.T) {
	id, method, hasMethod, ok := headEnvelope([]byte(`{"jsonrpc":"2.0","id":50,"method":"session/list","params":{"x":"aaaa`))
	if !ok || string(id) != "50" || method != "session/list" || !hasMethod {
		t.Errorf("headEnvelope = %s, %q, %v, %v", id, method, hasMethod, ok)
	}
	id, _, hasMethod, _ = headEnvelope([]byte(`{"jsonrpc":"2.0","id":1000000003,"result":{"content":"xxx`))
	if string(id) != "1000000003" || hasMethod {
		t.Errorf("a cut response: id %s, hasMethod %v", id, hasMethod)
	}
}
