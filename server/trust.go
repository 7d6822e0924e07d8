package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/host"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/questions"
)

// The workspace's .agentls.yaml applies only its narrowing keys until the
// user trusted its current content (docs/guard.md, "Workspace configuration
// trust"). After `initialized`, and after each save of the file, the server
// reloads the configuration, applies what it may at once, warns about the
// ignored keys and asks; a "Trust" is remembered and the configuration is
// applied again.

// isTrustFile reports whether path is the workspace's .agentls.yaml.
func (s *Server) isTrustFile(path string) bool {
	h := s.hosted()
	return h != nil && h.IsTrustFile(path)
}

// isMCPFile reports whether path is a workspace MCP server file
// (.mcp.json, .vscode/mcp.json): saving one asks about its trust again.
func isMCPFile(path string) bool {
	base := filepath.Base(path)
	return base == ".mcp.json" || base == "mcp.json" && filepath.Base(filepath.Dir(path)) == ".vscode"
}

// isProjectKindFile reports whether path is one of the workspace's own
// sub-agent kinds (.agentls/agents/*.md): the trust of .agentls.yaml covers
// them as shown, so saving one asks again (docs/subagents.md).
func (s *Server) isProjectKindFile(path string) bool {
	h := s.hosted()
	if h == nil || h.TrustFile() == "" || filepath.Ext(path) != ".md" {
		return false
	}
	return host.SameFile(filepath.Dir(path), filepath.Join(filepath.Dir(h.TrustFile()), ".agentls", "agents"))
}

// configReview is the one key of the configuration review queue.
const configReview = "workspace"

// reviewWorkspaceConfig reloads the configuration, applies it, and asks the
// user to trust the workspace file when keys of it wait for trust. It runs
// on the document worker (one at a time; a save while the question is open
// queues one more review).
func (s *Server) reviewWorkspaceConfig(ctx context.Context) {
	h := s.hosted()
	if h == nil {
		return
	}
	blocked := h.BlockedBy()
	cfg, trust := h.Reload()
	h.Reconfigure(cfg)
	s.announceConfigLoad(ctx, blocked, h.BlockedBy()) // config_load.go
	defer s.reviewMCPFiles(ctx)
	if !trust.Pending() {
		return
	}
	slog.Warn("untrusted workspace configuration", "file", trust.Path, "ignored", trust.Widening)
	if !trust.Askable() { // a file that cannot be trusted: the warning says why
		s.warnUntrusted(ctx, trust)
		return
	}
	// The question comes first and names the keys itself; the warning only
	// when they stay ignored. Before it, editors that echo messages (Neovim,
	// Emacs) stood a long warning in front of the question: a hit-enter
	// prompt, or the warning overwritten unread.
	yes, err := s.askTrust(ctx, trust)
	if trustOutcome(ctx, "workspace configuration", trust.Path, yes, err) != trustGiven {
		if ctx.Err() == nil {
			s.warnUntrusted(ctx, trust)
		}
		return
	}
	if err := h.Trust(trust); err != nil {
		slog.Warn("trust not remembered; it holds until the server stops", "err", err)
	}
	cfg, again := h.Reload()
	h.Reconfigure(cfg)
	if again.Pending() { // the file changed while the user decided: ask about the new content
		s.docWork.config.put(configReview, struct{}{})
		return
	}
	slog.Info("workspace configuration trusted", "file", trust.Path, "sha256", trust.Sum)
	s.notifyClient(ctx, "window/showMessage", map[string]any{"type": questions.MessageInfo,
		"message": questions.Escape(fmt.Sprintf("agentls: you trusted %s; all of its settings apply now", trust.Path))})
}

// warnUntrusted tells the user which keys of the workspace file are ignored
// and why (window/showMessage, a warning).
func (s *Server) warnUntrusted(ctx context.Context, trust config.WorkspaceTrust) {
	s.notifyClient(ctx, "window/showMessage", map[string]any{"type": questions.MessageWarning, "message": questions.Escape(trust.Warning())})
}

// askTrust asks, through the permission service, whether to trust the
// workspace file's content: "Don't trust" first (some clients pick the
// first action on a bare Enter). The question lists every widening key
// with its value in full; above trustDocLines lines they go into a
// generated document in the state folder, opened beside the question. A
// dismissed question is not trust.
func (s *Server) askTrust(ctx context.Context, w config.WorkspaceTrust) (bool, error) {
	req := permission.Request{
		Requester: "agentls", Kind: agentproto.PermissionTrust, What: w.Path, Reach: agentproto.ReachWorkspace,
		Grants: w.Grants(),
		Options: []agentproto.PermissionOption{
			permission.Opt(agentproto.RejectOnce, config.TrustAnswers[0]),
			permission.Opt(agentproto.AllowAlways, config.TrustAnswers[1]),
		},
	}
	shown := make(chan struct{})
	close(shown)
	if h := s.hosted(); h != nil && len(req.Grants) > trustDocLines {
		if doc, err := writeTrustDocument(h.StateDir(), w); err != nil {
			slog.Warn("trust document", "err", err) // the question lists them all then
		} else {
			// The document opens beside the question, not before it: an
			// editor slow to show it (bounded: showDocumentBound) does not
			// hold the question back.
			req.Document = doc
			shown = make(chan struct{})
			go func() {
				defer close(shown)
				if err := s.ShowDocument(ctx, doc); err != nil && ctx.Err() == nil {
					slog.Warn("show trust document", "doc", doc, "err", err)
				}
			}()
		}
	}
	defer func() { <-shown }() // the goroutine is owned: it ends within showDocumentBound
	return s.trustGranted(ctx, req)
}

// trustGranted asks a trust question through the permission service:
// trust is its "always" answer; a dismissed question, or an editor that
// cannot be asked, is not trust, and neither is a "Trust" the client gave
// by itself, faster than a person decides (permission.Mark): a warning
// says so (no tool call holds a trust question), and the question comes
// again when the file is saved or agentls starts.
func (s *Server) trustGranted(ctx context.Context, req permission.Request) (bool, error) {
	d, err := permission.Ask(ctx, s, req) // timed: permission/fast.go
	if note := d.FastNote(); note != "" {
		s.notifyClient(ctx, "window/showMessage", map[string]any{"type": questions.MessageWarning,
			"message": questions.Escape("agentls: " + note + ". " + req.What + " stays untrusted until you trust it: agentls asks again when it is saved, or at its next start.")})
	}
	if errors.Is(err, permission.ErrNoSurface) {
		return false, nil
	}
	if err != nil || d.Dismissed {
		return false, err
	}
	return d.Option == agentproto.AllowAlways, nil
}

// trustAnswer is the outcome of one trust question.
type trustAnswer int

const (
	trustFailed   trustAnswer = iota // the question failed, or ctx ended: ask no more
	trustDeclined                    // "Don't trust", or a dismissed question
	trustGiven                       // "Trust"
)

// trustOutcome is the outcome of a trust question about the file at path
// that answered yes or err, logged: a failed question (unless ctx ended:
// the editor left, nothing to say) and a refusal, as subject's ("workspace
// configuration", "workspace MCP file").
func trustOutcome(ctx context.Context, subject, path string, yes bool, err error) trustAnswer {
	switch {
	case err != nil:
		if ctx.Err() == nil {
			slog.Warn(subject+" trust question", "file", path, "err", err)
		}
		return trustFailed
	case !yes:
		slog.Info(subject+" not trusted", "file", path)
		return trustDeclined
	}
	return trustGiven
}

// reviewMCPFiles asks the user to trust each workspace MCP server file
// (.mcp.json, .vscode/mcp.json) whose content is not trusted yet; a
// "Trust" makes its servers startable (docs/mcp.md). "Don't trust" or a
// dismissed question leaves them skipped.
func (s *Server) reviewMCPFiles(ctx context.Context) {
	h := s.hosted()
	if h == nil || ctx.Err() != nil {
		return
	}
	for _, f := range h.PendingMCPFiles() {
		yes, err := s.askMCPFileTrust(ctx, f)
		switch trustOutcome(ctx, "workspace MCP file", f.Path, yes, err) {
		case trustFailed:
			return
		case trustDeclined:
			continue
		}
		if err := h.TrustMCPFile(f); err != nil {
			slog.Warn("MCP file trust not remembered", "file", f.Path, "err", err)
			continue
		}
		slog.Info("workspace MCP file trusted", "file", f.Path)
		s.notifyClient(ctx, "window/showMessage", map[string]any{"type": questions.MessageInfo,
			"message": questions.Escape(fmt.Sprintf("agentls: you trusted %s; its MCP servers start at the next request", f.Path))})
	}
}

// askMCPFileTrust asks, through the permission service, whether to trust a
// workspace MCP file: every server it would start is a grant, shown in full
// (its command line, its env variable names, its network); "Don't trust"
// first. A dismissed question is not trust.
func (s *Server) askMCPFileTrust(ctx context.Context, f host.MCPFileTrust) (bool, error) {
	return s.trustGranted(ctx, f.Permission("", ""))
}
