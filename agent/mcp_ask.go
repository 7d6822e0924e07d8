package agent

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/questions"
)

// maxTitleArgs is the most characters of a call's arguments the
// question's one-line title shows (the question shows them all:
// mcpCallPermission).
const maxTitleArgs = 120

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
	if len(pr.Args) > permission.DocChars {
		if doc, err := writeMCPArgsDocument(s.m.stateDir, pr); err != nil {
			slog.Warn("mcp: arguments document; the question shows every argument", "err", err)
		} else {
			pr.Document = doc
			defer s.m.showBeside(ctx, doc, "MCP arguments document")()
		}
	}
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
// and sandbox (MCPPlace), a note with the server's command line and its
// hints, and the arguments as the server gets them (sentArgs), every one
// (a face that can open a document gets a long list there:
// writeMCPArgsDocument).
func mcpCallPermission(ctx context.Context, sessionID string, req tools.MCPCallRequest, network, sandboxState string) permission.Request {
	reach := agentproto.ReachProcess
	if req.Remote || network != permission.NetworkNo {
		reach = agentproto.ReachNetwork // the tool's reach (mcpclient: Server.reach)
	}
	args, compact := sentArgs(req.Args)
	short := strings.Join(strings.Fields(compact), " ")
	if r := []rune(short); len(r) > maxTitleArgs {
		short = string(r[:maxTitleArgs-1]) + "…"
	}
	return permission.Request{
		SessionID: sessionID, ToolCallID: ToolCallID(ctx), Requester: req.Tool, Kind: agentproto.PermissionMCP,
		What: fmt.Sprintf("%s %s", req.ServerTool, short), Reach: reach, Network: network, Sandbox: sandboxState,
		Note: fmt.Sprintf("MCP server %s (%s), tool %s.\n\nThe server's own hints (not trusted): %s.",
			codeSpan(req.Server), codeSpan(req.Command), codeSpan(req.ServerTool), req.Hints),
		Args: args,
		Always: fmt.Sprintf("every later call of the tool %s of this server, with any arguments, runs without a question for the rest of this session",
			codeSpan(req.ServerTool)),
		Options: []agentproto.PermissionOption{
			permission.Opt(agentproto.RejectOnce, "Reject"),
			permission.Opt(agentproto.AllowOnce, "Allow"),
			permission.Opt(agentproto.AllowAlways, fmt.Sprintf("Always allow %s (this session)", req.Tool)),
		},
	}
}

// sentArgs is a call's arguments as the MCP server gets them: mcpclient
// parses them into an object (a repeated key's last value wins) and sends
// that, so the question shows that object (its keys sorted; indented, and
// compact for the title), never the model's text, in which a padded value
// can push a later key out of view or a repeated key show the value that
// loses. Arguments that are not an object are shown as they came
// (mcpclient refuses the call).
func sentArgs(raw json.RawMessage) (indented, compact string) {
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return string(raw), string(raw)
	}
	encode := func(indent string) string {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", indent)
		if err := enc.Encode(obj); err != nil {
			return string(raw)
		}
		return strings.TrimSuffix(b.String(), "\n")
	}
	return encode("  "), encode("")
}

// writeMCPArgsDocument writes a call's arguments in full as a generated
// question document (permission.WriteDocument), for a question that shows
// only their beginning, and returns its path.
func writeMCPArgsDocument(stateDir string, pr permission.Request) (string, error) {
	sum := sha256.Sum256([]byte(pr.Requester + "\x00" + pr.Args))
	args := questions.Escape(pr.Args)
	fence := permission.Fence(args, 3)
	text := fmt.Sprintf("# Arguments of the MCP call %s\n\n%s\n\n%sjson\n%s\n%s\n",
		permission.CodeSpan(questions.EscapeLine(pr.What)), questions.Escape(pr.Note), fence, args, fence)
	path, err := permission.WriteDocument(stateDir, "mcp-"+hex.EncodeToString(sum[:8]), text)
	if err != nil {
		return "", fmt.Errorf("MCP arguments document: %w", err)
	}
	return path, nil
}

// codeSpan shows s as one Markdown code span: escaped for one line (a
// newline in a server's tool name would otherwise forge lines of the
// question, a fake "Arguments:" block among them) and fenced with more
// backticks than any run in it.
func codeSpan(s string) string {
	return permission.CodeSpan(questions.EscapeLine(s))
}
