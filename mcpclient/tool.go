package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/questions"
)

// Tool is one MCP server tool as a tool of the agent's registry.
type Tool struct {
	server   *Server
	name     string // mcp__<server>__<tool>
	tool     *mcp.Tool
	shown    string // the server's name of the tool as shown (shownName)
	readOnly bool
	params   json.RawMessage
	desc     string
}

// newTool makes the registry tool of t, or says why t cannot be offered.
func newTool(s *Server, t *mcp.Tool, c Classifier) (*Tool, error) {
	params, err := checkSchema(t.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("tool %q of server %q: %w", t.Name, s.spec.Name, err)
	}
	ro := c.IsReadOnly(s.spec.Name, t)
	desc := capDescription(t.Description)
	class := "mutating: asked for in build mode, refused in plan mode"
	if ro {
		class = "read-only (listed by the user)"
	}
	shown := shownName(t.Name)
	desc = fmt.Sprintf("[MCP server %s, tool %s; %s] %s", s.spec.Name, shown, class, desc)
	return &Tool{server: s, name: ToolName(s.spec.Name, t.Name), tool: t, shown: shown, readOnly: ro, params: params, desc: desc}, nil
}

// callHooks lends a call the env's question surfaces (the server's
// elicitations) and its progress (the call's tool_call_update).
func callHooks(ctx context.Context, env tools.Env, tool string) *CallHooks {
	h := &CallHooks{}
	if e, ok := env.(tools.MCPElicitor); ok {
		h.Elicit, h.Scope = e.ElicitMCP, e.MCPScope()
	}
	if p, ok := env.(tools.ProgressReporter); ok {
		h.Progress = func(msg string) { p.ReportProgress(ctx, tool, msg) }
	}
	return h
}

// Spec implements tools.Tool.
func (t *Tool) Spec() tools.Spec {
	// A tool whose server has the network (an HTTP server, a stdio server
	// given it or not kept off it) sends what it gets over the network:
	// refused in plan mode unless plan_mode.allow_network_tools lists it.
	reach, remedy := t.server.reach(), t.server.networkRemedy()
	d := guard.Decl{Name: t.name, Class: guard.ClassMutating, Kind: guard.KindOther, Paths: guard.NoPaths(),
		Interaction: guard.WaitsOnHuman, Plan: guard.BuildOnly, Reach: reach, NetworkRemedy: remedy}
	if t.readOnly {
		d = guard.Decl{Name: t.name, Class: guard.ClassReadOnly, Kind: guard.KindReadOnly, Paths: guard.NoPaths(),
			Interaction: guard.Unattended, Plan: guard.OfferedInPlan, Reach: reach, NetworkRemedy: remedy}
	}
	return tools.Spec{ToolSpec: llm.ToolSpec{Name: t.name, Description: t.desc, Parameters: t.params}, Guard: d}
}

// TellsCommandStart implements tools.StartTeller: a mutating tool's Run
// tells its env when the call goes to the server, the user having allowed
// it (a read-only tool's call is no command).
func (t *Tool) TellsCommandStart() bool { return !t.readOnly }

// ReadOnly reports whether the tool counts as read-only.
func (t *Tool) ReadOnly() bool { return t.readOnly }

// Kind implements tools.Tool.
func (t *Tool) Kind() string {
	if t.readOnly {
		return "read"
	}
	return "other"
}

// Title implements tools.Tool: the names escaped for one line (a server
// chooses its tools' names: no control or bidi character reaches a title,
// and a long one is cut, shownName).
func (t *Tool) Title(json.RawMessage) string {
	return questions.EscapeLine(fmt.Sprintf("%s (MCP %s)", t.shown, t.server.spec.Name))
}

// Run implements tools.Tool: a mutating tool asks the user first (the
// guard refused it already in plan mode, and the mode is read again after
// the answer); the call then goes to the server within
// mcp.call_timeout_secs, its result capped at run.max_output_bytes.
func (t *Tool) Run(ctx context.Context, env tools.Env, args json.RawMessage) (tools.Result, error) {
	var obj map[string]any
	if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
		return tools.Failf("the arguments of %s must be a JSON object", t.name), nil
	}
	if !t.readOnly {
		asker, ok := env.(tools.MCPAsker)
		if !ok {
			return tools.Failf("%s cannot run here: no one can be asked to allow it", t.name), nil
		}
		allow, err := asker.AskMCPCall(ctx, tools.MCPCallRequest{
			Tool: t.name, Server: t.server.spec.Name, ServerTool: t.shown, Args: args,
			Hints: hints(t.tool), Command: t.server.spec.CommandLine(),
			Remote: t.server.spec.remote(), Network: t.server.spec.Network,
		})
		if err != nil {
			return tools.Result{}, err
		}
		if !allow {
			return tools.Failf("the user rejected the call of %s", t.name), nil
		}
		// The answer may have come after a switch to plan mode.
		if r := env.Guard().CheckCall(env.State(), t.name, args); r != nil {
			return tools.Refused(r), nil
		}
		tools.CommandStarting(ctx, env) // the checkpoints' scan: what changes from now on may be the server's
	}
	cfg := env.Config()
	timeout := time.Duration(cfg.MCP.CallTimeoutSecs) * time.Second
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	res, err := t.server.CallWith(ctx, t.tool.Name, obj, timeout, cfg.Run.MaxOutputBytes, callHooks(ctx, env, t.name))
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, ctx.Err()
		}
		return tools.Failf("%v", err), nil
	}
	if res.IsError {
		return tools.Failf("%s reported an error: %s", t.name, res.Text), nil
	}
	return tools.OK(res), nil
}
