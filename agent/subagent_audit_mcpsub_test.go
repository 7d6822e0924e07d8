package agent

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
)

// elicitTools is a tool source with one read-only tool, lookup, that acts
// as an MCP tool whose server asks the user something during the call (an
// MCP elicitation: mcpclient hands it to the env's ElicitMCP).
type elicitTools struct{}

func (elicitTools) SessionTools(context.Context, string) []tools.Tool {
	return []tools.Tool{tools.New(tools.Def[struct{}]{Name: "mcp__srv__lookup", Description: "Look up.\n", Kind: "read",
		Guard: guard.Decl{Class: guard.ClassReadOnly, Kind: guard.KindReadOnly, Interaction: guard.Unattended,
			Plan: guard.OfferedInPlan, Reach: agentproto.ReachProcess, Paths: guard.NoPaths()},
		Run: func(ctx context.Context, env tools.Env, _ struct{}) (tools.Result, error) {
			e, ok := env.(tools.MCPElicitor)
			if !ok {
				return tools.Failf("no elicitor"), nil
			}
			reply, err := e.ElicitMCP(ctx, tools.MCPElicitation{Server: "srv", Message: "Which account?", Mode: "form",
				Schema: json.RawMessage(`{"type":"object","properties":{"account":{"type":"string"}}}`)})
			if err != nil {
				return tools.Failf("%v", err), nil
			}
			return tools.OK(reply.Action), nil
		}})}
}

// TestSubagentMCPElicitationAskedInTheRoot: an explore sub-agent calls a
// read-only MCP tool whose server asks the user a question (elicitation).
// The question must be asked in the root's session, the one the editor
// knows (as a sub-agent's ask_user and its permission questions are:
// docs/subagents.md, "questions ... go to its root's stream"). It is asked
// with the sub-agent's own session id instead (agent/mcp_elicit.go uses
// s.meta.ID, not s.faceID()): an editor or ACP client knows no such session,
// so the question lands nowhere (the server gets "cancel"), or in a chat of
// its own.
func TestSubagentMCPElicitationAskedInTheRoot(t *testing.T) {
	script := `
steps:
  - tool_calls:
      - {id: t1, name: task, args: {kind: explore, prompt: look}}
  - text: done
children:
  explore-1:
    - tool_calls: [{id: k, name: mcp__srv__lookup}]
    - text: looked
`
	m, ed := newToolSourceManager(t, script, elicitTools{})
	var mu sync.Mutex
	var asked []string
	ed.ask = func(_ context.Context, req AskRequest) (AskReply, error) {
		mu.Lock()
		asked = append(asked, req.SessionID)
		mu.Unlock()
		return AskReply{Dismissed: true}, nil
	}
	s := newTestSession(t, m, "plan")
	if res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "go"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("Prompt = %+v, %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 {
		t.Fatalf("%d questions asked, want 1 (the server's elicitation)", len(asked))
	}
	if asked[0] != s.ID() {
		t.Errorf("the sub-agent's MCP elicitation was asked in session %s, want the root's %s (the session the editor knows)", asked[0], s.ID())
	}
}
