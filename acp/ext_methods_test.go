package acp_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestExtMethods: the agent/* calls of agentproto's table that name the
// ACP face are served as `_agentls/<name>` extension methods, with the
// params and results of the LSP face and clear errors; the others are not.
func TestExtMethods(t *testing.T) {
	in, out, dir := rawAgent(t)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	nextID(t, out, 1)
	fmt.Fprintf(in, `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`+"\n", dir)
	r, _ := nextID(t, out, 2)["result"].(map[string]any)
	sid, _ := r["sessionId"].(string)
	if sid == "" {
		t.Fatalf("session/new: %v", r)
	}
	cases := []struct {
		name   string
		line   string
		code   float64 // 0: a result
		result string  // in the result or the error's message
	}{
		{"compact", `{"jsonrpc":"2.0","id":%d,"method":"_agentls/compact","params":{"sessionId":%q}}`, 0, "map[compacted:false contextTokens:"},
		{"compact of an unknown session", `{"jsonrpc":"2.0","id":%d,"method":"_agentls/compact","params":{"sessionId":"nope%s"}}`, -32602, "unknown session"},
		{"compact with malformed params", `{"jsonrpc":"2.0","id":%d,"method":"_agentls/compact","params":{"sessionId":7%s}}`, -32602, "_agentls/compact: invalid params"},
		{"rewind to an unknown message", `{"jsonrpc":"2.0","id":%d,"method":"_agentls/rewind","params":{"sessionId":%q,"toMessageId":"x","what":"conversation"}}`, -32602, "x"},
		{"a method the ACP face has its own for", `{"jsonrpc":"2.0","id":%d,"method":"_agentls/newSession","params":{"sessionId":%q}}`, -32601, ""},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := 10 + i
			arg := any(sid)
			if strings.Contains(tc.line, "%s") {
				arg = ""
			}
			fmt.Fprintf(in, tc.line+"\n", id, arg)
			m := nextID(t, out, float64(id))
			if got := errCode(m); got != tc.code {
				t.Fatalf("error code %v, want %v: %v", got, tc.code, m)
			}
			if !strings.Contains(fmt.Sprint(m), tc.result) {
				t.Errorf("answer %v does not say %q", m, tc.result)
			}
		})
	}
}
