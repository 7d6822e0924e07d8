package tools

import (
	"context"
	"encoding/json"

	"github.com/agentls/agentls/config"
)

// MCPCallRequest is the permission an MCP tool call asks for in build mode
// (mcpclient makes the tools; the agent asks the user).
type MCPCallRequest struct {
	// Tool is the model-facing name (mcp__<server>__<tool>); Server and
	// ServerTool are the server's own names.
	Tool, Server, ServerTool string
	// Args are the call's arguments, shown to the user.
	Args json.RawMessage
	// Hints are the server's own annotations (readOnlyHint, …), shown
	// but not trusted.
	Hints string
	// Command is the server's command line (an HTTP server's URL).
	Command string
	// Remote: an HTTP server (it runs elsewhere; what the call sends
	// leaves the machine). Network: a stdio server's sandbox lets it reach
	// the network (its origin allows it). The question shows both.
	Remote, Network bool
}

// MCPAsker is the part of an Env that asks the user for an MCP tool call:
// Allow, Always allow this tool (for the session) or Reject. An Env without
// it runs no mutating MCP tool.
type MCPAsker interface {
	AskMCPCall(ctx context.Context, req MCPCallRequest) (allow bool, err error)
}

// CommandEnv is the environment a process agentls starts gets (commands,
// MCP servers): environ without the model's key variable and run.env_deny.
func CommandEnv(environ []string, cfg config.Config) []string { return commandEnv(environ, cfg) }

// CommandEnvDenied reports whether CommandEnv keeps the variable name out.
func CommandEnvDenied(name string, cfg config.Config) bool {
	return envDenied(name, envDenyPatterns(cfg))
}

// MCPElicitation is a server's request for input during one of its tool
// calls (MCP elicitation/create): a form (Schema, a flat JSON object
// schema) or a URL to visit (never opened by agentls: shown).
type MCPElicitation struct {
	// Server is the server's name; Message its own text for the user.
	Server, Message string
	// Mode is "form" or "url".
	Mode string
	// Schema is the form's requested schema (form mode).
	Schema json.RawMessage
	// URL and ElicitationID are the URL mode's.
	URL, ElicitationID string
}

// MCPElicitReply is the user's answer: Action is "accept" (Content holds
// the form's values), "decline" or "cancel".
type MCPElicitReply struct {
	Action  string
	Content map[string]any
}

// MCPElicitor is the part of an Env that puts a server's elicitation to
// the user through agentls's question surfaces (validated like ask_user).
// An Env without it declines every elicitation.
type MCPElicitor interface {
	ElicitMCP(ctx context.Context, req MCPElicitation) (MCPElicitReply, error)
	// MCPScope is who ElicitMCP asks (the id of the session the editor
	// knows: a sub-agent's root): a server shared by sessions asks no one
	// when its calls of two of them are running.
	MCPScope() string
}

// ProgressReporter is the part of an Env that shows a running tool call's
// progress: the turn's progress ("BUILD: <tool>: <message>"), and on ACP a
// tool_call_update of the call (status in_progress).
type ProgressReporter interface {
	ReportProgress(ctx context.Context, tool, message string)
}
