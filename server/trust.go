package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
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

// trustFile is the configuration file subject to trust: the workspace's
// .agentls.yaml ("" with --config, a file the user named).
func (s *Server) trustFile(root string) string {
	if s.opts.ConfigFile != "" || root == "" {
		return ""
	}
	return filepath.Join(root, ".agentls.yaml")
}

// isTrustFile reports whether path is the workspace's .agentls.yaml.
func (s *Server) isTrustFile(path string) bool {
	ws := s.workspace()
	if ws == nil {
		return false
	}
	f := s.trustFile(ws.Root())
	return f != "" && sameFile(path, f)
}

// configReview is the one key of the configuration review queue.
const configReview = "workspace"

// judgeWorkspaceFile reads the workspace's .agentls.yaml against the layers
// below it (lower) and the trust store: the layer that applies now, and
// the keys that wait for trust.
func (s *Server) judgeWorkspaceFile(path string, lower []config.Source) (config.WorkspaceTrust, []config.Diagnostic) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return config.WorkspaceTrust{Path: path, Layer: config.Source{Name: path}}, nil
	}
	if err != nil {
		slog.Warn("config file", "file", path, "err", err)
		return config.WorkspaceTrust{Path: path, Layer: config.Source{Name: path}}, nil
	}
	layer, diags := config.ParseLayer(path, data)
	base, err := config.Resolve(lower...)
	if err != nil {
		base = config.Default()
	}
	return s.trustStore().Judge(path, data, layer, base), diags
}

// trustStore is the store of trusted workspace files (set at initialize).
func (s *Server) trustStore() *config.TrustStore {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.trust
}

// reviewWorkspaceConfig reloads the configuration, applies it, and asks the
// user to trust the workspace file when keys of it wait for trust. It runs
// on the document worker (one at a time; a save while the question is open
// queues one more review).
func (s *Server) reviewWorkspaceConfig(ctx context.Context) {
	cfg, trust, ok := s.reloadConfig()
	if !ok {
		return
	}
	s.applyConfig(cfg)
	if !trust.Pending() {
		return
	}
	slog.Warn("untrusted workspace configuration", "file", trust.Path, "ignored", trust.Widening)
	s.notifyClient(ctx, "window/showMessage", map[string]any{"type": questions.MessageWarning, "message": trust.Warning()})
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
	if err := s.trustStore().Trust(trust.Path, trust.Content, time.Now()); err != nil {
		slog.Warn("trust not remembered; it holds until the server stops", "err", err)
	}
	cfg, again, ok := s.reloadConfig()
	if !ok {
		return
	}
	s.applyConfig(cfg)
	if again.Pending() { // the file changed while the user decided: ask about the new content
		s.docWork.config.put(configReview, struct{}{})
		return
	}
	slog.Info("workspace configuration trusted", "file", trust.Path, "sha256", trust.Sum)
	s.notifyClient(ctx, "window/showMessage", map[string]any{"type": questions.MessageInfo,
		"message": fmt.Sprintf("agentls: you trusted %s; all of its settings apply now", trust.Path)})
}

// reloadConfig loads the configuration layers again; ok is false before
// initialize.
func (s *Server) reloadConfig() (config.Config, config.WorkspaceTrust, bool) {
	s.mu.Lock()
	ws, init := s.ws, s.initOptions
	s.mu.Unlock()
	if ws == nil {
		return config.Config{}, config.WorkspaceTrust{}, false
	}
	cfg, _, trust := s.loadConfig(ws.Root(), init)
	return cfg, trust, true
}

// applyConfig makes cfg the configuration of the server and of the agent
// (from each session's next step), with a new model when its settings
// changed.
func (s *Server) applyConfig(cfg config.Config) {
	s.mu.Lock()
	old, mgr, ws := s.cfg, s.mgr, s.ws
	if reflect.DeepEqual(old, cfg) || mgr == nil {
		s.mu.Unlock()
		return
	}
	s.cfg = cfg
	s.mu.Unlock()
	var provider = mgr.Provider()
	if !reflect.DeepEqual(old.Model, cfg.Model) {
		p, err := s.newProvider(cfg, ws.Root())
		if err != nil {
			slog.Error("model provider", "err", err)
			p = agent.BrokenProvider{Err: err}
		}
		provider = p
	}
	mgr.Reconfigure(cfg, provider)
	slog.Info("configuration applied")
}

// askTrust asks whether to trust the workspace file's content: "Don't
// trust" first (some clients pick the first action on a bare Enter). A
// dismissed question is not trust.
func (s *Server) askTrust(ctx context.Context, w config.WorkspaceTrust) (bool, error) {
	set, err := questions.New([]questions.Question{{
		Name:     "trust",
		Question: w.Question(),
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
