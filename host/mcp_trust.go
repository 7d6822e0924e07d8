package host

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/mcpclient"
	"github.com/agentls/agentls/permission"
)

// MCPFileTrust is a workspace MCP server file (.mcp.json, .vscode/mcp.json)
// whose content waits for the user's trust: its servers start only once
// the trust store holds that content.
type MCPFileTrust struct {
	Path    string
	Content []byte
	// Servers lists each server the file would start, one line each: its
	// command line (or URL) in full, the names of its env variables and
	// headers, each variable of your environment it reads and where it
	// puts it, and network (what trusting the file grants).
	Servers []string
	// Question says what the file is and asks whether to trust it.
	Question string
}

// PendingMCPFiles are the workspace MCP files whose current content is not
// trusted and that define at least one server that would start. A file that
// can never be trusted (a symlink, unreadable) is not among them: its
// servers stay skipped, with the reason in their status.
func (h *Host) PendingMCPFiles() []MCPFileTrust {
	root := h.ws.Root()
	var out []MCPFileTrust
	for _, f := range mcpclient.ReadWorkspaceFiles(root, h.opts.Getenv, mcpclient.Denied(h.Config())) {
		if f.Err != nil || h.untrustable(f.Path) != "" || h.trust.Trusted(f.Path, f.Content) {
			continue
		}
		var lines []string
		for _, s := range f.Specs {
			if s.Skip == "" {
				lines = append(lines, trustLine(s))
			}
		}
		if len(lines) == 0 {
			continue
		}
		rel, _ := filepath.Rel(root, f.Path)
		q := fmt.Sprintf("This workspace's %s starts the MCP servers listed (programs that run on your machine, with your files and network). Their tools stay under the plan guard (mutating unless you list them in mcp.read_only). Trust this file?", rel)
		out = append(out, MCPFileTrust{Path: f.Path, Content: f.Content, Servers: lines, Question: q})
	}
	return out
}

// trustLine is what trusting a file grants one of its servers: its command
// line (or URL), its env variables or headers as the file writes them
// (mcpclient.ServerSpec.Settings), its cwd, each variable of the user's
// environment it reads (a token handed to it, in a header to another
// host), and network.
func trustLine(s mcpclient.ServerSpec) string {
	parts := []string{"env: " + orNone(s.Settings())}
	if s.Type == "http" {
		parts = []string{"headers: " + orNone(s.Settings())}
	}
	if s.AsWritten != nil && s.AsWritten.Cwd != "" {
		parts = append(parts, "cwd: "+s.AsWritten.Cwd)
	}
	for _, r := range s.EnvRefs {
		parts = append(parts, fmt.Sprintf("reads your environment's %s into %s", r.Var, r.In))
	}
	parts = append(parts, "network: yes")
	return fmt.Sprintf("%s: `%s` (%s)", s.Name, s.CommandLine(), strings.Join(parts, "; "))
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// TrustMCPFile remembers that the user trusted the file's content and
// makes its servers startable (at the next tool listing). An error means
// the trust was not stored.
func (h *Host) TrustMCPFile(f MCPFileTrust) error {
	if why := h.untrustable(f.Path); why != "" {
		return fmt.Errorf("%w: %s", ErrUntrustable, why)
	}
	err := h.trust.Trust(f.Path, f.Content, time.Now())
	cfg := h.Config()
	h.mcp.Configure(cfg, h.mcpSpecs(cfg))
	return err
}

// Permission is the trust question of the file, the same on every face:
// through the permission service, every server it would start a grant
// shown in full (command line or URL, env variable names, network), "Don't
// trust" first.
func (f MCPFileTrust) Permission(sessionID, toolCallID string) permission.Request {
	return permission.Request{
		SessionID: sessionID, ToolCallID: toolCallID,
		Requester: "agentls", Kind: agentproto.PermissionTrust, What: f.Path, Reach: agentproto.ReachProcess,
		Grants: f.Servers, Note: f.Question,
		Options: []agentproto.PermissionOption{
			permission.Opt(agentproto.RejectOnce, config.TrustAnswers[0]),
			permission.Opt(agentproto.AllowAlways, config.TrustAnswers[1]),
		},
	}
}
