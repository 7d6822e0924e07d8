package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/questions"
)

// maxShownArgs is the most bytes of a call's arguments a question shows;
// maxTitleArgs the most its one-line title shows.
const (
	maxShownArgs = 4000
	maxTitleArgs = 120
)

// AskMCPCall asks the user, through the permission service, whether a
// mutating MCP tool may run (build mode; the guard refuses it in plan mode
// before this): Reject, Allow or Always allow this tool (for the session),
// with the arguments, the server's command line and its (untrusted) hints
// shown escaped. A tool the user allowed for the session runs unasked.
func (e *env) AskMCPCall(ctx context.Context, req tools.MCPCallRequest) (bool, error) {
	s := e.s.rootSession() // a sub-agent asks through its root, whose answers it uses
	key := mcpAlwaysKey(req)
	s.mu.Lock()
	always := s.mcpAlways[key]
	s.mu.Unlock()
	if always {
		return true, nil
	}
	network, sandboxState := MCPPlace(s.m.SandboxStatus(), req.Remote, req.Network)
	pr := mcpCallPermission(ctx, s.faceID(), req, network, sandboxState)
	pr.Requester = e.s.requester(pr.Requester)
	d, err := s.m.Permit(ctx, pr)
	if errors.Is(err, permission.ErrNoSurface) {
		return false, fmt.Errorf("the editor cannot ask for permission to run MCP tools; list the tool in mcp.read_only only if it changes nothing")
	}
	if err != nil || d.Dismissed {
		return false, err
	}
	switch d.Option {
	case agentproto.AllowOnce:
		return true, nil
	case agentproto.AllowAlways:
		s.mu.Lock()
		if s.mcpAlways == nil {
			s.mcpAlways = map[string]bool{}
		}
		s.mcpAlways[key] = true
		s.mu.Unlock()
		return true, nil
	}
	return false, nil
}

// mcpAlwaysKey is what an "Always allow" answer holds: the server (its
// name and command line) and the tool as the server names it, never the
// model-facing name alone. Two servers' tools can share that name once
// sanitised (`ev.il` and `ev_il`, a name cut at 64 characters), and which
// one holds it can change from one listing to the next (a server drops a
// tool, fails or restarts): an answer about one must never allow the other.
func mcpAlwaysKey(req tools.MCPCallRequest) string {
	return strings.Join([]string{req.Server, req.Command, req.ServerTool}, "\x00")
}

// mcpCallPermission is the permission request of one MCP tool call: what
// (the tool and its arguments, cut for the title), the server's network
// and sandbox (MCPPlace), and a note with the whole arguments in a fence,
// the server's command line and its hints.
func mcpCallPermission(ctx context.Context, sessionID string, req tools.MCPCallRequest, network, sandboxState string) permission.Request {
	reach := agentproto.ReachProcess
	if req.Remote {
		reach = agentproto.ReachNetwork
	}
	args := string(req.Args)
	short := strings.Join(strings.Fields(args), " ")
	if r := []rune(short); len(r) > maxTitleArgs {
		short = string(r[:maxTitleArgs-1]) + "…"
	}
	if len(args) > maxShownArgs {
		args = args[:maxShownArgs] + "…"
	}
	// A fence longer than any backtick run in the arguments keeps them
	// shown as they are.
	fence := "```"
	for strings.Contains(args, fence) {
		fence += "`"
	}
	return permission.Request{
		SessionID: sessionID, ToolCallID: ToolCallID(ctx), Requester: req.Tool, Kind: agentproto.PermissionMCP,
		What: fmt.Sprintf("%s %s", req.ServerTool, short), Reach: reach, Network: network, Sandbox: sandboxState,
		Note: fmt.Sprintf("MCP server %s (%s), tool %s.\n\nArguments:\n%s json\n%s\n%s\n\nThe server's own hints (not trusted): %s.",
			codeSpan(req.Server), codeSpan(req.Command), codeSpan(req.ServerTool), fence, args, fence, req.Hints),
		Options: []agentproto.PermissionOption{
			permission.Opt(agentproto.RejectOnce, "Reject"),
			permission.Opt(agentproto.AllowOnce, "Allow"),
			permission.Opt(agentproto.AllowAlways, fmt.Sprintf("Always allow %s (this session)", req.Tool)),
		},
	}
}

// codeSpan shows s as one Markdown code span: escaped for one line (a
// newline in a server's tool name would otherwise forge lines of the
// question, a fake "Arguments:" block among them) and fenced with more
// backticks than any run in it.
func codeSpan(s string) string {
	return permission.CodeSpan(questions.EscapeLine(s))
}
