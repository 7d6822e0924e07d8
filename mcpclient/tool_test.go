package mcpclient

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// askEnv is a tools.Env for an MCP tool's Run: the mode, the guard of the
// tool, and an ask that answers allow (and may switch the mode meanwhile).
// Other Env methods are not used by MCP tools (nil: they would panic).
type askEnv struct {
	tools.Env
	g     *guard.Guard
	mode  atomic.Value // agentproto.Mode
	allow bool
	onAsk func()
	asked atomic.Int32
}

func (e *askEnv) Guard() *guard.Guard   { return e.g }
func (e *askEnv) State() guard.State    { return guard.State{Mode: e.mode.Load().(agentproto.Mode)} }
func (e *askEnv) Config() config.Config { return config.Default() }
func (e *askEnv) AskMCPCall(context.Context, tools.MCPCallRequest) (bool, error) {
	e.asked.Add(1)
	if e.onAsk != nil {
		e.onAsk()
	}
	return e.allow, nil
}

// TestMutatingCallAskedThenModeReadAgain: a mutating MCP tool asks before
// the call; rejected, the server never gets it; allowed after the session
// switched to plan mode meanwhile, it is refused (the mode is read again
// after the human answered) and the server never gets it either.
func TestMutatingCallAskedThenModeReadAgain(t *testing.T) {
	p, logf := hostilePool(t, config.Default())
	ts := p.SessionTools(context.Background(), "s")
	w := toolByName(t, ts, "mcp__evil__write_note")
	ws, err := workspace.New(p.root) // the server's workspace: the only place its sandbox lets it write

	if err != nil {
		t.Fatal(err)
	}
	reg, err := tools.NewRegistry(ts...)
	if err != nil {
		t.Fatal(err)
	}
	g := guard.New(ws, "plans", reg.Declarations())
	target := ws.Root() + "/note.txt"
	args := json.RawMessage(`{"path":"` + target + `","content":"x"}`)

	env := &askEnv{g: g, allow: false}
	env.mode.Store(agentproto.ModeBuild)
	res, err := w.Run(context.Background(), env, args)
	if err != nil || res.Success || !strings.Contains(res.Error, "rejected") || env.asked.Load() != 1 {
		t.Fatalf("rejected call: %+v %v (asked %d)", res, err, env.asked.Load())
	}

	env = &askEnv{g: g, allow: true}
	env.mode.Store(agentproto.ModeBuild)
	env.onAsk = func() { env.mode.Store(agentproto.ModePlan) }
	res, err = w.Run(context.Background(), env, args)
	if err != nil || res.Refusal == nil || res.Error != guard.RefusalMessage {
		t.Fatalf("allowed after a switch to plan mode: %+v %v", res, err)
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatal("the server wrote the file")
	}
	if b, _ := os.ReadFile(logf); strings.Contains(string(b), "write_note") {
		t.Fatalf("the server got the call: %q", b)
	}

	// Allowed in build mode: it runs.
	env = &askEnv{g: g, allow: true}
	env.mode.Store(agentproto.ModeBuild)
	if res, err = w.Run(context.Background(), env, args); err != nil || !res.Success {
		t.Fatalf("allowed call: %+v %v", res, err)
	}
	if b, _ := os.ReadFile(target); string(b) != "x" {
		t.Fatalf("note.txt = %q", b)
	}
}

// plainEnv is an Env that cannot ask anyone.
type plainEnv struct{ tools.Env }

func (plainEnv) Config() config.Config { return config.Default() }

// TestMutatingCallWithoutAsker: an Env that cannot ask runs no mutating
// MCP tool.
func TestMutatingCallWithoutAsker(t *testing.T) {
	p, logf := hostilePool(t, config.Default())
	w := toolByName(t, p.SessionTools(context.Background(), "s"), "mcp__evil__write_note")
	res, err := w.Run(context.Background(), plainEnv{}, json.RawMessage(`{"path":"/tmp/x","content":"x"}`))
	if err != nil || res.Success || !strings.Contains(res.Error, "no one can be asked") {
		t.Fatalf("%+v %v", res, err)
	}
	if b, _ := os.ReadFile(logf); len(b) != 0 {
		t.Fatalf("the server got a call: %q", b)
	}
}
