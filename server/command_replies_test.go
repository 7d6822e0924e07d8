package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/server"
)

// askingModel asks one question (ask_user) at once, then says it is done.
type askingModel struct{}

func (askingModel) Complete(_ context.Context, req llm.Request, _ func(llm.Event)) (llm.Response, error) {
	if last := req.Messages[len(req.Messages)-1]; last.Role == llm.RoleTool {
		return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "done"}, FinishReason: "stop"}, nil
	}
	args := `{"questions":[{"name":"go","question":"Go on?","schema":{"type":"boolean"},"buttons":[{"label":"Yes","value":true},{"label":"No","value":false}]}]}`
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant,
		ToolCalls: []agentproto.ToolCall{{ID: "q", Name: "ask_user", Arguments: args}}}, FinishReason: "tool_calls"}, nil
}

// TestPromptCommandRepliesBeforeTheTurnAsks: agentls.prompt returns once
// its turn starts; the turn's first question (window/showMessageRequest)
// must not reach the editor ahead of that reply. jsonrpc.el 1.0.14 (Emacs
// 28, 29) runs the question's handler inside the wait of the synchronous
// executeCommand; the reply coming in meanwhile throws out of the handler,
// which never answers, and the turn waits for ever (sentinel-test.el hung
// so on a loaded machine). Twenty prompts, each asking at once: the reply
// comes first every time.
func TestPromptCommandRepliesBeforeTheTurnAsks(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	c, _ := serveRaw(t, ctx, server.Options{
		Getenv: homeOnly(t),
		NewProvider: func(config.Config, func(string) string, string) (llm.Provider, error) {
			return askingModel{}, nil
		},
	})
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://` + dir + `","capabilities":{}}}`)
	c.next()
	c.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	for i := range 20 {
		newID, promptID := 100+2*i, 101+2*i
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"workspace/executeCommand","params":{"command":"agentls.newSession","arguments":[{"mode":"plan"}]}}`, newID))
		if r := c.next(); r["error"] != nil {
			t.Fatalf("agentls.newSession: %v", r["error"])
		}
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"workspace/executeCommand","params":{"command":"agentls.prompt","arguments":[{"text":"ask"}]}}`, promptID))
		first := c.nextMatching(func(m map[string]any) bool {
			return m["method"] == "window/showMessageRequest" || (m["method"] == nil && m["id"] == float64(promptID))
		})
		if first["method"] != nil {
			t.Fatalf("prompt %d: the turn's question reached the editor before agentls.prompt's reply: %v", i+1, first)
		}
		if first["error"] != nil {
			t.Fatalf("prompt %d: %v", i+1, first["error"])
		}
		q := c.nextMatching(func(m map[string]any) bool { return m["method"] == "window/showMessageRequest" })
		id, _ := json.Marshal(q["id"])
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"title":"Yes"}}`, id))
	}
}
