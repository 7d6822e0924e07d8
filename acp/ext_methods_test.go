package acp_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
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

// TestExtMethodsCarried: every row of agentproto's table that names the ACP
// face is carried with the face's own rules, over real pipes: a malformed
// payload is -32602 naming the method in the user's terms (no Go types), a
// session not opened on this connection is -32602 naming it, before the
// agent is asked. A method added to the table (and host/agentapi) is
// checked here without a line of its own.
func TestExtMethodsCarried(t *testing.T) {
	in, out, _ := rawAgent(t)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	nextID(t, out, 1)
	var names []string
	for _, m := range agentproto.Table() {
		if m.Faces.Has(agentproto.ACP) {
			names = append(names, m.ACPName())
		}
	}
	if len(names) == 0 {
		t.Fatal("no row names the ACP face: the test would check nothing")
	}
	id := 100
	for _, name := range names {
		for _, tc := range []struct{ params, says string }{
			{`[1]`, name + ": invalid params: expected an object, got a list"},
			{`{"sessionId":"elsewhere"}`, `unknown session "elsewhere"`},
		} {
			id++
			fmt.Fprintf(in, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, name, tc.params)
			m := nextID(t, out, float64(id))
			if errCode(m) != -32602 || !strings.Contains(fmt.Sprint(m), tc.says) {
				t.Errorf("%s %s = %v, want -32602 saying %q", name, tc.params, m, tc.says)
			}
		}
	}
}
