package server_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/host/agentapi"
	"github.com/agentls/agentls/server"
)

// TestSharedHandlersCarried: the LSP face carries every face-neutral
// handler of host/agentapi whose row names it with the face's own rules,
// over real pipes: refused before initialize (-32002), a malformed payload
// is -32602 in the user's terms before the agent is asked. A method added
// to agentapi is checked here without a line of its own.
func TestSharedHandlersCarried(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, done := serveRaw(t, ctx, server.Options{Getenv: homeOnly(t)})
	var methods []string
	for _, h := range agentapi.Handlers() {
		if m := h.Method(); m.Faces.Has(agentproto.LSP) {
			methods = append(methods, m.Name)
		}
	}
	if len(methods) == 0 {
		t.Fatal("agentapi serves nothing on the LSP face: the test would check nothing")
	}
	code := func(m map[string]any) float64 {
		e, _ := m["error"].(map[string]any)
		c, _ := e["code"].(float64)
		return c
	}
	for i, name := range methods {
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{}}`, 100+i, name))
		if m := c.next(); code(m) != -32002 {
			t.Errorf("%s before initialize = %v, want -32002", name, m)
		}
	}
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://` + t.TempDir() + `","capabilities":{}}}`)
	if m := c.next(); m["result"] == nil {
		t.Fatalf("initialize = %v", m)
	}
	for i, name := range methods {
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":[1]}`, 200+i, name))
		m := c.next()
		e, _ := m["error"].(map[string]any)
		if msg, _ := e["message"].(string); code(m) != -32602 || !strings.Contains(msg, "invalid params: expected an object, got a list") {
			t.Errorf("%s with a list for params = %v, want -32602 in the user's terms", name, m)
		}
	}
	c.shutdownExit(done)
}
