package acp

import (
	"encoding/json"
	"io"
	"testing"
)

// TestPromptIDsTable: which entries promptIDs keeps through a sequence of
// routed prompts, answers written by the SDK and closed sessions.
func TestPromptIDsTable(t *testing.T) {
	prompt := func(id, session string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"session/prompt","params":{"sessionId":"` + session + `"}}`)
	}
	type op struct {
		kind      string // "prompt", "answer", "close", "out"
		id, value string
	}
	for _, tc := range []struct {
		name string
		ops  []op
		want map[string]string
	}{
		{"running", []op{{"prompt", "1", "a"}}, map[string]string{"a": "1"}},
		{"answered", []op{{"prompt", "1", "a"}, {"answer", "1", ""}}, map[string]string{}},
		{"answered with an error", []op{{"prompt", `"x"`, "a"}, {"out", `{"jsonrpc":"2.0","id":"x","error":{"code":-32603,"message":"m"}}`, ""}}, map[string]string{}},
		{"closed", []op{{"prompt", "1", "a"}, {"prompt", "2", "b"}, {"close", "", "a"}}, map[string]string{"b": "2"}},
		{"a superseded prompt's answer keeps the newer one", []op{{"prompt", "1", "a"}, {"prompt", "2", "a"}, {"answer", "1", ""}}, map[string]string{"a": "2"}},
		{"a request with the same id is not an answer", []op{{"prompt", "7", "a"}, {"out", `{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{}}`, ""}}, map[string]string{"a": "7"}},
		{"a notification is not an answer", []op{{"prompt", "7", "a"}, {"out", `{"jsonrpc":"2.0","method":"session/update","params":{"id":7}}`, ""}}, map[string]string{"a": "7"}},
		{"many sessions, all answered", []op{{"prompt", "1", "a"}, {"prompt", "2", "b"}, {"prompt", "3", "c"}, {"answer", "2", ""}, {"answer", "3", ""}, {"answer", "1", ""}}, map[string]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p promptIDs
			out := p.watchAnswers(io.Discard)
			for _, o := range tc.ops {
				switch o.kind {
				case "prompt":
					p.routed(json.RawMessage(o.id), prompt(o.id, o.value))
				case "answer":
					_, _ = out.Write([]byte(`{"jsonrpc":"2.0","id":` + o.id + `,"result":{"stopReason":"end_turn"}}` + "\n"))
				case "out":
					_, _ = out.Write([]byte(o.id + "\n"))
				case "close":
					p.closed(o.value)
				}
			}
			if p.tracked() != len(tc.want) {
				t.Fatalf("kept %v, want %v", p.newest, tc.want)
			}
			for s, k := range tc.want {
				if p.newest[s] != k {
					t.Errorf("kept %v, want %v", p.newest, tc.want)
				}
			}
		})
	}
}
