package acp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/permission"
)

// reviewMCPTrust asks, at a prompt, whether to trust each workspace MCP
// server file (.mcp.json, .vscode/mcp.json) whose content is not trusted
// yet: the same question as the LSP face's (host.MCPFileTrust.Permission:
// every server it would start with its command line or URL in full, its env
// variables' names and its network; "Don't trust" first), as a
// session/request_permission on a tool call of its own. "Trust" is
// remembered and its servers start at this prompt's first request. Each
// content is asked once per connection. cancelled reports that the client
// cancelled the question (or the prompt).
func (h *hosted) reviewMCPTrust(ctx context.Context, sessionID string) (cancelled bool) {
	for _, f := range h.PendingMCPFiles() {
		sum := sha256.Sum256(append([]byte(f.Path+"\x00"), f.Content...))
		hexSum := hex.EncodeToString(sum[:])
		if !h.trustAsked.first("mcp-" + hexSum) {
			continue
		}
		callID := "trust-mcp-" + hexSum[:16]
		req := f.Permission(sessionID, callID)
		h.ed.send(ctx, sessionID, toolCallStart{SessionUpdate: "tool_call", ToolCallID: callID, Title: req.Title(), Kind: "other", Status: "pending"})
		d, err := permission.Ask(ctx, h.ed, req) // timed: permission/fast.go
		status := "failed"
		if err == nil && d.Option == agentproto.AllowAlways {
			if terr := h.TrustMCPFile(f); terr != nil {
				slog.Warn("acp: MCP file trust not remembered", "file", f.Path, "err", terr)
			} else {
				status = "completed"
				slog.Info("acp: workspace MCP file trusted", "file", f.Path)
			}
		}
		var content []toolContent
		if note := d.FastNote(); note != "" {
			// The client's own "Trust" trusts nothing: asked again next time.
			h.trustAsked.again("mcp-" + hexSum)
			content = []toolContent{textContent(trustFastNote(note, f.Path, "its servers not started"))}
		}
		cancelled := err != nil && (errors.Is(err, errCancelledByClient) || ctx.Err() != nil)
		if err != nil && !cancelled {
			h.trustAsked.again("mcp-" + hexSum) // decided nothing: asked again at the next prompt
			content = []toolContent{textContent(trustAskFailed(f.Path, err))}
		}
		h.ed.send(ctx, sessionID, toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: callID, Status: status, Content: content})
		if err != nil {
			slog.Warn("acp: MCP file trust question", "file", f.Path, "err", err)
			if cancelled {
				return true
			}
		}
	}
	return false
}
