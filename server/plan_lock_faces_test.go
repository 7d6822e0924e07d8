package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/acp"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/scripted"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// acpLines is a raw ACP client: it sends requests line by line and reads
// the agent's lines until the response to each.
type acpLines struct {
	t    *testing.T
	in   io.Writer
	out  *bufio.Scanner
	next int
	// updates are the session/update notifications' params, as read.
	updates []json.RawMessage
}

// call sends a request and returns its result (failing the test on an
// error response).
func (c *acpLines) call(method string, params any) json.RawMessage {
	c.t.Helper()
	c.next++
	id := c.next
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := fmt.Fprintf(c.in, "%s\n", b); err != nil {
		c.t.Fatal(err)
	}
	for c.out.Scan() {
		var m struct {
			ID     *int            `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(c.out.Bytes(), &m); err != nil {
			c.t.Fatalf("agent line %s: %v", c.out.Bytes(), err)
		}
		if m.Method == "session/update" {
			c.updates = append(c.updates, m.Params)
			continue
		}
		if m.Method == "" && m.ID != nil && *m.ID == id {
			if len(m.Error) > 0 {
				c.t.Fatalf("%s: %s", method, m.Error)
			}
			return m.Result
		}
		c.t.Fatalf("unexpected line from the agent: %s", c.out.Bytes())
	}
	c.t.Fatalf("%s: the agent ended: %v", method, c.out.Err())
	return nil
}

// failedCalls maps each tool call that ended failed to its output text.
func (c *acpLines) failedCalls() map[string]string {
	out := map[string]string{}
	for _, p := range c.updates {
		var u struct {
			Update struct {
				SessionUpdate string          `json:"sessionUpdate"`
				ToolCallID    string          `json:"toolCallId"`
				Status        string          `json:"status"`
				RawOutput     json.RawMessage `json:"rawOutput"`
			} `json:"update"`
		}
		if json.Unmarshal(p, &u) == nil && u.Update.SessionUpdate == "tool_call_update" && u.Update.Status == "failed" {
			out[u.Update.ToolCallID] = string(u.Update.RawOutput)
		}
	}
	return out
}

// TestPlanLockAcrossFaces (issue 17 item 6): the plan an LSP editor's
// session builds is locked for an ACP client whose session cwd is the
// project's parent folder: its planner's writes are refused with the
// lock's sentence and the plan stays as approved.
func TestPlanLockAcrossFaces(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	parent := filepath.Join(base, "p")
	proj := filepath.Join(parent, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"XDG_STATE_HOME": filepath.Join(base, "state"), "XDG_CONFIG_HOME": filepath.Join(base, "config"), "HOME": filepath.Join(base, "home")}
	b := lsptest.Start(t, lsptest.Setup{Dir: proj, Env: env, Files: map[string]string{lockedPlan: lockedPlanText}})
	var builder agentproto.Session
	if err := command(b, "agentls.buildPlan", map[string]any{"path": lockedPlan}, &builder); err != nil {
		t.Fatalf("buildPlan: %v", err)
	}
	approved := b.Read(lockedPlan)

	sc, err := scripted.Parse([]byte(parentPlannerScript))
	if err != nil {
		t.Fatal(err)
	}
	model := scripted.New(sc)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c2aR, c2aW := io.Pipe()
	a2cR, a2cW := io.Pipe()
	served := make(chan struct{})
	go func() {
		defer close(served)
		defer a2cW.Close()
		acp.Serve(ctx, c2aR, a2cW, acp.Options{Version: "test", Getenv: func(k string) string { return env[k] },
			NewProvider: func(config.Config, func(string) string, string) (llm.Provider, error) { return model, nil }})
	}()
	defer func() {
		_ = c2aW.Close()
		go func() { _, _ = io.Copy(io.Discard, a2cR) }()
		<-served
	}()
	out := bufio.NewScanner(a2cR)
	out.Buffer(make([]byte, 1<<20), 1<<22)
	c := &acpLines{t: t, in: c2aW, out: out}
	c.call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}})
	var sess struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(c.call("session/new", map[string]any{"cwd": parent, "mcpServers": []any{}}), &sess); err != nil {
		t.Fatal(err)
	}
	c.call("session/set_mode", map[string]any{"sessionId": sess.SessionID, "modeId": "plan"})
	c.call("session/prompt", map[string]any{"sessionId": sess.SessionID, "prompt": []any{map[string]any{"type": "text", "text": "rewrite proj/plans/x.plan"}}})
	failed := c.failedCalls()
	want := guard.PlanBuiltMessage("proj/plans/x.plan")
	for _, id := range []string{"w", "pe", "pw", "rm"} {
		if !strings.Contains(failed[id], want) {
			t.Errorf("%s from the ACP parent: %q, want failed with %q", id, failed[id], want)
		}
	}
	if got := b.Read(lockedPlan); got != approved {
		t.Fatalf("the plan being built changed from the ACP parent:\n%s", got)
	}
}
