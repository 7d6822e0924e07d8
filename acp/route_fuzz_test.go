package acp

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
)

// FuzzRouteAnswersWithIDs: whatever line arrives, the wire does not panic,
// every answer it makes itself is one JSON-RPC error object, a batch of n
// objects gets n answers (each with its element's id), and a lone object
// with an id whose method is not a string is answered with that id.
func FuzzRouteAnswersWithIDs(f *testing.F) {
	for _, s := range []string{
		`[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":"x","method":"b"}]`,
		`{"jsonrpc":"2.0","id":7,"method":42}`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":null}`,
		`[]`, `[1,2]`, `not json`, `{"id":1}`, `{"jsonrpc":"2.0","id":3,"result":null}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		w := newWire(bytes.NewReader(nil), io.Discard)
		drained := make(chan struct{})
		go func() { // the SDK's side: take what the wire lets through
			defer close(drained)
			_, _ = io.Copy(io.Discard, w.sdkIn)
		}()
		w.route([]byte(line))
		_ = w.toSDK.Close()
		<-drained
		close(w.replies)
		var answers []map[string]json.RawMessage
		for r := range w.replies {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(r, &m); err != nil || string(m["jsonrpc"]) != `"2.0"` || m["error"] == nil {
				t.Fatalf("answer %q to %q is not a JSON-RPC error", r, line)
			}
			answers = append(answers, m)
		}
		trimmed := trimSpace([]byte(line))
		var batch []json.RawMessage
		if len(trimmed) > 0 && trimmed[0] == '[' && json.Unmarshal(trimmed, &batch) == nil && len(batch) > 0 {
			if len(answers) != len(batch) && len(batch) <= replyQueueLen {
				t.Fatalf("a batch of %d got %d answers", len(batch), len(answers))
			}
			for i, e := range batch {
				if i >= len(answers) {
					break
				}
				var env struct {
					ID json.RawMessage `json:"id"`
				}
				if json.Unmarshal(e, &env) == nil && len(env.ID) > 0 && string(env.ID) != "null" && !jsonEqual(env.ID, answers[i]["id"]) {
					t.Fatalf("batch element %d id %s answered with id %s", i, env.ID, answers[i]["id"])
				}
			}
		}
		var env struct {
			JSONRPC json.RawMessage `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Method  json.RawMessage `json:"method"`
		}
		if len(trimmed) > 0 && trimmed[0] == '{' && json.Unmarshal(trimmed, &env) == nil && len(env.ID) > 0 && string(env.ID) != "null" &&
			len(env.Method) > 0 && env.Method[0] != '"' && string(env.Method) != "null" {
			if len(answers) != 1 || !jsonEqual(env.ID, answers[0]["id"]) {
				t.Fatalf("%q: answers %v, want one with id %s", line, answers, env.ID)
			}
		}
	})
}

// jsonEqual compares two JSON values by meaning.
func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}
