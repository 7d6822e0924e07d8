package server

import (
	"context"
	"fmt"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/protoconv"
)

// status is agent/status: the sandbox, each MCP server's state and the
// language intelligence, with no request to the model (the editors ask it
// after every turn; agent/checkModel is the one that probes the model).
func (s *Server) status(_ context.Context, _ agentproto.Empty) (agentproto.AgentStatus, error) {
	return protoconv.AgentStatus(s.manager().Status()), nil
}

// statusCommand is agentls.status: agent/status, shown too (for an editor
// without a plugin): the sandbox, then one message per MCP server, a
// failed one as an error with its reason and the tail of its stderr.
func (s *Server) statusCommand(ctx context.Context, p agentproto.Empty) (agentproto.AgentStatus, error) {
	st, err := s.status(ctx, p)
	if err != nil {
		return st, err
	}
	s.showLine(ctx, msgInfo, "agentls: sandbox: "+st.Sandbox.Summary)
	if len(st.MCPServers) == 0 {
		s.showLine(ctx, msgInfo, "agentls: no MCP servers configured (mcp.servers, .mcp.json, .vscode/mcp.json)")
	}
	s.showMCPStatus(ctx, st.MCPServers)
	return st, nil
}

// showMCPStatus shows each MCP server's state as a message of its own
// (agentls.status, agentls.checkModel).
func (s *Server) showMCPStatus(ctx context.Context, servers []agentproto.MCPServerStatus) {
	for _, m := range servers {
		typ, text := mcpStatusLine(m)
		s.showLine(ctx, typ, text)
	}
}

// mcpStatusLine is one MCP server's state in words: running or idle with
// its tools, failed (an error) with why and the tail of its stderr,
// skipped or stopped with why.
func mcpStatusLine(m agentproto.MCPServerStatus) (int, string) {
	what := fmt.Sprintf("agentls: MCP server %s (%s, from %s): %s", m.Name, m.Command, m.Origin, m.State)
	switch m.State {
	case "failed":
		if m.Reason != "" {
			what += ": " + m.Reason
		}
		if m.StderrTail != "" {
			what += "; its stderr ends with: " + m.StderrTail
		}
		return msgError, what
	case "running", "idle":
		return msgInfo, fmt.Sprintf("%s, %d tools", what, m.Tools)
	}
	if m.Reason != "" {
		what += ": " + m.Reason
	}
	return msgInfo, what
}
