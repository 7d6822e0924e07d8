package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/google/uuid"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/config"
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
	cfg, trust := h.Reload()
	h.Reconfigure(cfg)
	defer s.reviewMCPFiles(ctx)
	if !trust.Pending() {
		return
	}
	slog.Warn("untrusted workspace configuration", "file", trust.Path, "ignored", trust.Widening)
	s.notifyClient(ctx, "window/showMessage", map[string]any{"type": questions.MessageWarning, "message": trust.Warning()})
	if !trust.Askable() { // a file that cannot be trusted: the warning says why
		return
	}
	yes, err := s.askTrust(ctx, trust)
	if err != nil {
		if ctx.Err() == nil {
			slog.Warn("trust question", "file", trust.Path, "err", err)
		}
		return
	}
	if !yes {
		slog.Info("workspace configuration not trusted", "file", trust.Path)
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
		"message": fmt.Sprintf("agentls: you trusted %s; all of its settings apply now", trust.Path)})
}

// askTrust asks whether to trust the workspace file's content: "Don't
// trust" first (some clients pick the first action on a bare Enter). A
// dismissed question is not trust.
func (s *Server) askTrust(ctx context.Context, w config.WorkspaceTrust) (bool, error) {
	return s.askTrustQuestion(ctx, w.Question())
}

// askTrustQuestion asks question with the trust question's answers.
func (s *Server) askTrustQuestion(ctx context.Context, question string) (bool, error) {
	set, err := questions.New([]questions.Question{{
		Name:     "trust",
		Question: question,
		Schema:   []byte(`{"type":"boolean"}`),
		Buttons: []questions.Button{
			{Label: config.TrustAnswers[0], Value: false, Variant: "primary"},
			{Label: config.TrustAnswers[1], Value: true, Variant: "danger"},
		},
		Severity: "major",
	}})
	if err != nil {
		return false, fmt.Errorf("trust question: %w", err)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return false, fmt.Errorf("trust question id: %w", err)
	}
	reply, err := s.Ask(ctx, agent.AskRequest{
		QuestionID: id.String(), Set: set, Purpose: "config_trust", CreatedAt: time.Now(),
		Actions: []questions.Action{{Title: config.TrustAnswers[0], Value: false}, {Title: config.TrustAnswers[1], Value: true}},
	})
	if errors.Is(err, agent.ErrNoSurface) {
		return false, nil
	}
	if err != nil || reply.Dismissed {
		return false, err
	}
	return reply.Answers["trust"] == true, nil
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
		yes, err := s.askTrustQuestion(ctx, f.Question)
		if err != nil {
			if ctx.Err() == nil {
				slog.Warn("MCP file trust question", "file", f.Path, "err", err)
			}
			return
		}
		if !yes {
			slog.Info("workspace MCP file not trusted", "file", f.Path)
			continue
		}
		if err := h.TrustMCPFile(f); err != nil {
			slog.Warn("MCP file trust not remembered", "file", f.Path, "err", err)
			continue
		}
		slog.Info("workspace MCP file trusted", "file", f.Path)
		s.notifyClient(ctx, "window/showMessage", map[string]any{"type": questions.MessageInfo,
			"message": fmt.Sprintf("agentls: you trusted %s; its MCP servers start at the next request", f.Path)})
	}
}
