package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/server"
	"github.com/agentls/agentls/server/internal/lsptest"
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

// planPath is the plan's path in planningModel's prompt.
var planPath = regexp.MustCompile(`plans/r[0-9]+\.plan`)

// planningModel writes a plan (at the path its prompt names) and asks to
// approve it; rejected, it asks a question, revises the plan and asks
// again; approved, it writes the text file named like the plan (r1.txt for
// plans/r1.plan). Each step answers the last tool result (by its call id).
type planningModel struct{}

func (planningModel) Complete(_ context.Context, req llm.Request, _ func(llm.Event)) (llm.Response, error) {
	call := func(id, name, args string) (llm.Response, error) {
		return llm.Response{Message: llm.Message{Role: llm.RoleAssistant,
			ToolCalls: []agentproto.ToolCall{{ID: id, Name: name, Arguments: args}}}, FinishReason: "tool_calls"}, nil
	}
	var plan string // the prompt names the plan's path
	for _, m := range req.Messages {
		if m.Role == llm.RoleUser && plan == "" {
			plan = planPath.FindString(m.Content)
		}
	}
	last := req.Messages[len(req.Messages)-1]
	switch {
	case last.Role != llm.RoleTool:
		return call("w", "plan_write", fmt.Sprintf(`{"title":"Greeting","path":%q,"content":"# Goal\nSay hello.\n\n## Steps\n- [ ] Write hello.txt\n"}`, plan))
	case last.ToolCallID == "w":
		return call("x1", "exit_plan_mode", fmt.Sprintf(`{"plan_file_path":%q}`, plan))
	case last.ToolCallID == "x1":
		return call("q", "ask_user", `{"questions":[{"name":"go","question":"Go on?","schema":{"type":"boolean"},"buttons":[{"label":"Yes","value":true},{"label":"No","value":false}]}]}`)
	case last.ToolCallID == "q":
		return call("w2", "plan_write", fmt.Sprintf(`{"title":"Greeting","path":%q,"content":"# Goal\nSay hello.\n\n## Steps\n- [ ] Write hello.txt with a newline\n"}`, plan))
	case last.ToolCallID == "w2":
		return call("x2", "exit_plan_mode", fmt.Sprintf(`{"plan_file_path":%q}`, plan))
	case last.ToolCallID == "x2":
		return call("e", "write", fmt.Sprintf(`{"path":"%s.txt","content":"hello\n"}`, strings.TrimSuffix(strings.TrimPrefix(plan, "plans/"), ".plan")))
	}
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "done"}, FinishReason: "stop"}, nil
}

// TestCommandsAreAnsweredBeforeTheTurnGoesOn: a command that settles what a
// turn waits for lets the turn go on at once, and the turn's next question
// or edit must not reach the editor ahead of the command's reply (Emacs
// 30's jsonrpc.el, like Emacs 28's, runs it inside the command's wait and
// the reply throws out of it: plan-comments-test.el hung so). The approval
// is dismissed each time (a null reply: it stays pending); agentls.rejectPlan
// is answered before the model's question, agentls.approvePlan before the
// model's first edit (workspace/applyEdit), and the edit that marks the
// open plan approved for agentls.approvePlan does not wait for its reply.
func TestCommandsAreAnsweredBeforeTheTurnGoesOn(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, _ := serveRaw(t, ctx, server.Options{
		Getenv: homeOnly(t),
		NewProvider: func(config.Config, func(string) string, string) (llm.Provider, error) {
			return planningModel{}, nil
		},
	})
	dir := t.TempDir()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://` + dir + `","capabilities":{"workspace":{"applyEdit":true,"workspaceEdit":{"documentChanges":true}}}}}`)
	c.next()
	c.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	question := func(m map[string]any) bool { return m["method"] == "window/showMessageRequest" }
	// settle sends a command and checks that its reply comes before the
	// turn's next question or edit, which it returns.
	settle := func(round int, id int, command, args string, next string) map[string]any {
		t.Helper()
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"workspace/executeCommand","params":{"command":%q,"arguments":[%s]}}`, id, command, args))
		first := c.nextMatching(func(m map[string]any) bool {
			return m["method"] == next || (m["method"] == nil && m["id"] == float64(id))
		})
		if first["method"] != nil {
			t.Fatalf("round %d: the turn's %s reached the editor before %s's reply: %v", round, next, command, first)
		}
		if first["error"] != nil {
			t.Fatalf("round %d: %s: %v", round, command, first["error"])
		}
		return c.nextMatching(func(m map[string]any) bool { return m["method"] == next })
	}
	reply := func(req map[string]any, result string) {
		id, _ := json.Marshal(req["id"])
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result))
	}
	for round := 1; round <= 10; round++ {
		base := 100 * round
		// the round's file, open: a plain editor's edit of a file it has open goes through the editor
		file := filepath.Join(dir, fmt.Sprintf("r%d.txt", round))
		if err := os.WriteFile(file, []byte("hi\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		c.send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file://` + file + `","languageId":"text","version":1,"text":"hi\n"}}}`)
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"workspace/executeCommand","params":{"command":"agentls.newSession","arguments":[{"mode":"plan"}]}}`, base))
		created := c.next()
		if created["error"] != nil {
			t.Fatalf("agentls.newSession: %v", created["error"])
		}
		session := created["result"].(map[string]any)["sessionId"].(string)
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"workspace/executeCommand","params":{"command":"agentls.prompt","arguments":[{"text":"plan it in plans/r%d.plan"}]}}`, base+1, round))
		reply(c.nextMatching(question), "null") // the approval, dismissed
		plan := fmt.Sprintf(`{"sessionId":%q,"planFile":"plans/r%d.plan"`, session, round)
		asked := settle(round, base+2, "agentls.rejectPlan", plan+`,"reason":"not yet"}`, "window/showMessageRequest")
		reply(asked, `{"title":"Yes"}`)
		approval := c.nextMatching(question)
		// the person opens the revised plan and reads it (a faster approval is the client's)
		planFile := filepath.Join(dir, "plans", fmt.Sprintf("r%d.plan", round))
		text, err := os.ReadFile(planFile)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
			"textDocument": map[string]any{"uri": "file://" + planFile, "languageId": "plan", "version": 1, "text": string(text)}}})
		c.send(string(body))
		time.Sleep(lsptest.PersonReads)
		reply(approval, "null")
		// agentls.approvePlan waits while its turn marks the open plan
		// approved (an edit for the command, which does not wait for the
		// command's reply: that would take replyWriteBound); then the
		// reply, then the turn's first edit.
		start := time.Now()
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"workspace/executeCommand","params":{"command":"agentls.approvePlan","arguments":[%s}]}}`, base+3, plan))
		for {
			m := c.nextMatching(func(m map[string]any) bool {
				return m["method"] == "workspace/applyEdit" || (m["method"] == nil && m["id"] == float64(base+3))
			})
			if m["method"] == nil {
				if m["error"] != nil {
					t.Fatalf("round %d: agentls.approvePlan: %v", round, m["error"])
				}
				break
			}
			if p, _ := json.Marshal(m["params"]); !strings.Contains(string(p), planFile) {
				t.Fatalf("round %d: the turn's edit reached the editor before agentls.approvePlan's reply: %s", round, p)
			}
			reply(m, `{"applied":true}`)
		}
		if took := time.Since(start); took > 4*time.Second {
			t.Fatalf("round %d: agentls.approvePlan took %s: the plan's edit made for it waited for its own reply", round, took)
		}
		reply(c.nextMatching(func(m map[string]any) bool { return m["method"] == "workspace/applyEdit" }), `{"applied":true}`)
	}
}
