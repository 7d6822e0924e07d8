package agent

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/agentls/agentls/agent/slash"
	"github.com/agentls/agentls/agentproto"
)

// modelListBound bounds the provider's model listing (agent/listModels):
// an endpoint that does not answer in time leaves the configured models.
const modelListBound = 3 * time.Second

// ModelLister is a provider that lists its endpoint's models (GET /models).
type ModelLister interface {
	Models(ctx context.Context) ([]string, error)
}

// configuredModels are model.name and model.plan_name, without blanks or
// repeats.
func (m *Manager) configuredModels() []string {
	cfg := m.config().Model
	var out []string
	for _, n := range []string{cfg.Name, cfg.PlanName} {
		if n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// offeredModels are the configured models and, when the provider lists
// its endpoint's models within modelListBound, those too.
func (m *Manager) offeredModels(ctx context.Context) []string {
	out := m.configuredModels()
	l, ok := m.Provider().(ModelLister)
	if !ok {
		return out
	}
	ctx, cancel := context.WithTimeout(ctx, modelListBound)
	defer cancel()
	listed, err := l.Models(ctx)
	if err != nil {
		slog.Info("the endpoint's models are not listed; offering the configured ones", "err", err)
		return out
	}
	for _, n := range listed {
		if n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// ListModels is agent/listModels: the models a session may use and the
// current ones (the session's when sessionID is set, else the
// configuration's).
func (m *Manager) ListModels(ctx context.Context, sessionID string) (agentproto.ModelList, error) {
	provider := m.config().Model.Provider
	if provider == "" {
		provider = "openai"
	}
	var out agentproto.ModelList
	for _, n := range m.offeredModels(ctx) {
		out.Models = append(out.Models, agentproto.ModelInfo{ID: n, Provider: provider})
	}
	if out.Models == nil {
		out.Models = []agentproto.ModelInfo{}
	}
	if sessionID == "" {
		cfg := m.config().Model
		out.Current = agentproto.CurrentModels{Plan: cmp(cfg.PlanName, cfg.Name), Build: cfg.Name}
		return out, nil
	}
	cur, err := m.SessionModels(sessionID)
	if err != nil {
		return agentproto.ModelList{}, err
	}
	out.Current = cur
	return out, nil
}

// SessionModels are the models the session's requests use in each mode
// (its own choice, else the configuration's).
func (m *Manager) SessionModels(sessionID string) (agentproto.CurrentModels, error) {
	s, err := m.session(sessionID)
	if err != nil {
		return agentproto.CurrentModels{}, err
	}
	return agentproto.CurrentModels{Plan: s.modelName(agentproto.ModePlan), Build: s.modelName(agentproto.ModeBuild)}, nil
}

// cmp is the first of a, b that is not empty.
func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// SetModel is agent/setModel: the session's model for mode ("" for its
// current mode), one of the offered models, kept in the session's
// metadata; the session's next model request uses it.
func (m *Manager) SetModel(ctx context.Context, sessionID, mode, model string) (agentproto.ModelList, error) {
	s, err := m.session(sessionID)
	if err != nil {
		return agentproto.ModelList{}, err
	}
	md := agentproto.Mode(mode)
	switch md {
	case "":
		md = s.State().Mode
	case agentproto.ModePlan, agentproto.ModeBuild:
	default:
		return agentproto.ModelList{}, invalidf("mode must be \"plan\" or \"build\", not %q", mode)
	}
	model = strings.TrimSpace(model)
	if offered := m.offeredModels(ctx); !slices.Contains(offered, model) {
		return agentproto.ModelList{}, invalidf("model %q is not offered; choose one of %s (configure others in .agentls.yaml: model.name, model.plan_name)",
			slash.QuoteName(model), strings.Join(offered, ", "))
	}
	if err := s.setModel(md, model); err != nil {
		return agentproto.ModelList{}, err
	}
	return m.ListModels(ctx, sessionID)
}

// setModel keeps model as the session's model for mode in its metadata.
func (s *Session) setModel(mode agentproto.Mode, model string) error {
	s.mu.Lock()
	if mode == agentproto.ModePlan {
		s.meta.PlanModel = model
	} else {
		s.meta.BuildModel = model
	}
	save := s.saveMetaLocked()
	s.mu.Unlock()
	save()
	slog.Info("session model set", "session", s.meta.ID, "mode", mode, "model", model)
	return nil
}
