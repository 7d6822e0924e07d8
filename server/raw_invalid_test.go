package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/setuptest"
	"github.com/agentls/agentls/server"
)

// TestInvalidMessagesAnsweredWithTheirIDs: a request that is not valid
// JSON-RPC but shows its id and method (a wrong or missing "jsonrpc"
// member) is answered with that id, so that the client's call ends with
// the error instead of waiting for an answer that, with id null, it can
// never match; and a reply to one of the server's requests that is not
// valid JSON-RPC ends that request with an error at once (before, the
// question it carried waited out the approval timeout, 24 hours by
// default, while the user believed they had answered).
func TestInvalidMessagesAnsweredWithTheirIDs(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	state := t.TempDir()
	model := setuptest.Model(t, `
name: malformed_reply
steps:
  - tool_calls:
      - {id: q, name: ask_user, args: {questions: [{name: go, question: "Go on?", schema: {type: boolean}}]}}
  - text: done
    expect:
      tool_result_contains: {q: ['"success":false', "not valid JSON-RPC"]}
`)
	c, done := serveRaw(t, ctx, server.Options{
		Getenv: func(k string) string {
			if k == "XDG_STATE_HOME" || k == "XDG_CONFIG_HOME" {
				return state
			}
			return ""
		},
		NewProvider: func(config.Config, func(string) string, string) (llm.Provider, error) { return model, nil },
	})
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://` + dir + `","capabilities":{},` +
		`"initializationOptions":{"plan_mode":{"approval_timeout_secs":20}}}}`)
	if m := c.next(); m["result"] == nil {
		t.Fatalf("initialize = %v", m)
	}
	for _, req := range []string{
		`{"jsonrpc":"1.0","id":7,"method":"agent/listSessions","params":{}}`,
		`{"id":"seven","method":"agent/listSessions","params":{}}`,
	} {
		c.send(req)
		m := c.next()
		var want any
		_ = json.Unmarshal([]byte(req), &struct {
			ID *any `json:"id"`
		}{&want})
		if e, _ := m["error"].(map[string]any); e == nil || e["code"].(float64) != -32600 || fmt.Sprint(m["id"]) != fmt.Sprint(want) {
			t.Fatalf("%s answered %v, want -32600 with its id %v", req, m, want)
		}
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"agent/newSession","params":{"mode":"build"}}`)
	sess := c.next()["result"].(map[string]any)
	c.send(`{"jsonrpc":"2.0","id":3,"method":"agent/prompt","params":{"sessionId":"` + sess["sessionId"].(string) + `","text":"ask"}}`)
	ask := c.nextMatching(func(m map[string]any) bool { return m["method"] == "window/showMessageRequest" })
	id, _ := json.Marshal(ask["id"])
	c.send(`{"id":` + string(id) + `,"result":{"title":"Yes"}}`) // no "jsonrpc"
	res := c.nextMatching(func(m map[string]any) bool { return fmt.Sprint(m["id"]) == "3" })
	r, _ := res["result"].(map[string]any)
	if r == nil || r["stopReason"] != "end_turn" {
		t.Fatalf("prompt = %v, want end_turn with the failed question read by the model", res)
	}
	c.shutdownExit(done)
}
