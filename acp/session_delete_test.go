package acp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSessionDelete: initialize advertises sessionCapabilities.delete;
// session/delete removes the session's files (closing it here first);
// deleting it again succeeds silently; a malformed id, and a session
// another process drives, get clear errors.
func TestSessionDelete(t *testing.T) {
	t.Parallel()
	in, out, dir := rawAgent(t)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	m := next(t, out)
	res, _ := m["result"].(map[string]any)
	caps, _ := res["agentCapabilities"].(map[string]any)
	sc, _ := caps["sessionCapabilities"].(map[string]any)
	if _, ok := sc["delete"]; !ok || sc["close"] == nil {
		t.Fatalf("sessionCapabilities %v lack delete (or lost close)", sc)
	}
	newSession := func(id int) string {
		fmt.Fprintf(in, `{"jsonrpc":"2.0","id":%d,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`+"\n", id, dir)
		m := nextID(t, out, float64(id))
		r, _ := m["result"].(map[string]any)
		sid, _ := r["sessionId"].(string)
		if sid == "" {
			t.Fatalf("session/new: %v", m)
		}
		return sid
	}
	sid := newSession(2)
	chat := filepath.Join(dir, ".agentls", "chats", sid+".chat")
	if _, err := os.Stat(chat); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(in, `{"jsonrpc":"2.0","id":3,"method":"session/delete","params":{"sessionId":%q}}`+"\n", sid)
	if m := nextID(t, out, 3); m["error"] != nil || m["result"] == nil {
		t.Fatalf("session/delete: %v", m)
	}
	if _, err := os.Stat(chat); !os.IsNotExist(err) {
		t.Errorf("the session file is still there: %v", err)
	}
	fmt.Fprintf(in, `{"jsonrpc":"2.0","id":4,"method":"session/delete","params":{"sessionId":%q}}`+"\n", sid)
	// Deleting it again succeeds silently: it is gone (the ACP spec's SHOULD).
	if m := nextID(t, out, 4); m["error"] != nil || fmt.Sprint(m["result"]) != "map[]" {
		t.Errorf("deleting it again: %v", m)
	}
	fmt.Fprintf(in, `{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"hi"}]}}`+"\n", sid)
	if m := nextID(t, out, 5); errCode(m) != -32602 {
		t.Errorf("prompting a deleted session: %v", m)
	}

	// A session another process (here: another connection) holds.
	other := newSession(6)
	in2, out2, _ := rawAgent(t)
	fmt.Fprintln(in2, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	nextID(t, out2, 1)
	fmt.Fprintf(in2, `{"jsonrpc":"2.0","id":2,"method":"session/delete","params":{"sessionId":%q,"cwd":%q}}`+"\n", other, dir)
	if m := nextID(t, out2, 2); errCode(m) != -32602 || !strings.Contains(fmt.Sprint(m), "open in another agentls process") {
		t.Errorf("deleting a session held elsewhere: %v", m)
	}
	if _, err := os.Stat(filepath.Join(dir, ".agentls", "chats", other+".chat")); err != nil {
		t.Errorf("the held session was deleted: %v", err)
	}
	fmt.Fprintf(in, `{"jsonrpc":"2.0","id":7,"method":"session/delete","params":{"sessionId":"../x"}}`+"\n")
	if m := nextID(t, out, 7); errCode(m) != -32602 {
		t.Errorf("a bad id: %v", m)
	}
}

// nextID returns the next output line with the given id (skipping
// notifications).
func nextID(t *testing.T, out <-chan map[string]any, id float64) map[string]any {
	t.Helper()
	for {
		m := next(t, out)
		if m["id"] == id {
			return m
		}
	}
}
