package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
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
// The question is asked in the root's session, the one the editor knows
// (as a sub-agent's ask_user and its permission questions are), never with
// the sub-agent's own id, which no editor or ACP client knows (the question
// would land nowhere and the server get "cancel").
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

// reclassTools is a tool source whose tool mcp__srv__sync is read-only
// until flip runs, and mutating after (as mcpclient offers it once the user
// took srv/sync out of mcp.read_only, or once the server's list changed):
// the next listing offers it so. ran counts sync's runs.
type reclassTools struct {
	flipped *atomic.Bool
	ran     *atomic.Int32
}

func (r reclassTools) SessionTools(context.Context, string) []tools.Tool {
	ro := guard.Decl{Class: guard.ClassReadOnly, Kind: guard.KindReadOnly, Interaction: guard.Unattended,
		Plan: guard.OfferedInPlan, Reach: agentproto.ReachProcess, Paths: guard.NoPaths()}
	mut := guard.Decl{Class: guard.ClassMutating, Kind: guard.KindOther, Interaction: guard.WaitsOnHuman,
		Plan: guard.BuildOnly, Reach: agentproto.ReachProcess, Paths: guard.NoPaths()}
	sync := ro
	if r.flipped.Load() {
		sync = mut
	}
	return []tools.Tool{
		tools.New(tools.Def[struct{}]{Name: "mcp__srv__flip", Description: "Flip.\n", Kind: "read", Guard: ro,
			Run: func(context.Context, tools.Env, struct{}) (tools.Result, error) {
				r.flipped.Store(true)
				return tools.OK("flipped"), nil
			}}),
		tools.New(tools.Def[struct{}]{Name: "mcp__srv__sync", Description: "Sync.\n", Kind: "read", Guard: sync,
			Run: func(context.Context, tools.Env, struct{}) (tools.Result, error) {
				r.ran.Add(1)
				return tools.OK("synced"), nil
			}}),
	}
}

// TestSubagentSeesTheNewToolList: each of a sub-agent's model requests
// lists its root's tools again (the root asks nothing while its task call
// runs). An MCP tool the tool source now offers as mutating (the user took
// it out of mcp.read_only while the explorers run; docs/mcp.md) is judged
// so at the running explore sub-agent's next request: in plan mode its
// next call is refused, as the root's own would be, not run unasked.
func TestSubagentSeesTheNewToolList(t *testing.T) {
	script := `
steps:
  - tool_calls:
      - {id: t1, name: task, args: {kind: explore, prompt: sync}}
  - text: done
children:
  explore-1:
    - tool_calls: [{id: a, name: mcp__srv__sync}]
    - tool_calls: [{id: f, name: mcp__srv__flip}]
    - tool_calls: [{id: b, name: mcp__srv__sync}]
    - text: synced
`
	src := reclassTools{flipped: new(atomic.Bool), ran: new(atomic.Int32)}
	m, _ := newToolSourceManager(t, script, src)
	s := newTestSession(t, m, "plan")
	if res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "go"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("Prompt = %+v, %v", res, err)
	}
	if n := src.ran.Load(); n != 1 {
		t.Errorf("mcp__srv__sync ran %d times in plan mode, want 1: after the tool source offered it as mutating, the sub-agent's next request still offered it read-only and its call ran unasked", n)
	}
}

// askingTools is a tool source with one mutating MCP-like tool, note, that
// asks through the env's AskMCPCall as mcpclient's tools do.
type askingTools struct{}

func (askingTools) SessionTools(context.Context, string) []tools.Tool {
	return []tools.Tool{tools.New(tools.Def[struct{}]{Name: "mcp__srv__note", Description: "Note.\n", Kind: "other",
		Guard: guard.Decl{Class: guard.ClassMutating, Kind: guard.KindOther, Interaction: guard.WaitsOnHuman,
			Plan: guard.BuildOnly, Reach: agentproto.ReachProcess, Paths: guard.NoPaths()},
		Run: func(ctx context.Context, env tools.Env, _ struct{}) (tools.Result, error) {
			ok, err := env.(tools.MCPAsker).AskMCPCall(ctx, tools.MCPCallRequest{Tool: "mcp__srv__note", Server: "srv",
				ServerTool: "note", Args: json.RawMessage(`{}`), Hints: "none", Command: "srv-bin"})
			if err != nil || !ok {
				return tools.Failf("not allowed: %v", err), nil
			}
			return tools.OK("noted"), nil
		}})}
}

// TestSubagentMCPQuestionNamesTheSubagent: a build sub-agent's MCP call is
// asked in its root's session, and on the LSP faces too the text a person
// reads (agent/askUser's question, window/showMessageRequest's message)
// says a sub-agent asks, as ACP's does ("Asked by sub-agent build-1 …"):
// neither VS Code nor Neovim shows the payload's requester, and a person
// must not allow (or "Always allow", which lands on the root) a call they
// take for the root's own.
func TestSubagentMCPQuestionNamesTheSubagent(t *testing.T) {
	script := `
steps:
  - tool_calls:
      - {id: t1, name: task, args: {kind: build, prompt: "note it"}}
  - text: done
children:
  build-1:
    - tool_calls: [{id: n1, name: mcp__srv__note}]
    - text: noted
`
	m, ed := newToolSourceManager(t, script, askingTools{})
	var mu sync.Mutex
	var asked []AskRequest
	ed.ask = func(_ context.Context, req AskRequest) (AskReply, error) {
		mu.Lock()
		asked = append(asked, req)
		mu.Unlock()
		return AskReply{Answers: map[string]any{"decision": "reject_once"}}, nil
	}
	s := newTestSession(t, m, "build")
	if res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "go"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("Prompt = %+v, %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 || asked[0].Permission == nil {
		t.Fatalf("%d questions, want the child's MCP call", len(asked))
	}
	q := asked[0].Set.Questions[0].Question
	if !strings.Contains(asked[0].Permission.Requester, "sub-agent build-1") {
		t.Fatalf("requester %q does not name the child (rig)", asked[0].Permission.Requester)
	}
	if !strings.Contains(q, "sub-agent") {
		t.Errorf("the question a person reads does not say a sub-agent asks:\n%s", q)
	}
}
