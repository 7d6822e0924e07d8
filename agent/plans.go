package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"sort"
	"strings"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/sessionstore"
	"github.com/agentls/agentls/workspace"
)

// PlanSessions lists, sorted, the ids of the sessions in memory that have the
// plan rel (workspace-relative) attached.
func (m *Manager) PlanSessions(rel string) []string {
	var ids []string
	for _, s := range m.sessionsWithPlan(rel) {
		ids = append(ids, s.ID())
	}
	sort.Strings(ids)
	return ids
}

// sessionsWithPlan returns the sessions in memory that have rel attached.
func (m *Manager) sessionsWithPlan(rel string) []*Session {
	if rel == "" {
		return nil
	}
	var out []*Session
	for _, s := range m.loaded() {
		if s.sub == nil && s.planFile() == rel { // a sub-agent has its root's
			out = append(out, s)
		}
	}
	return out
}

// PlanChanged is told that the plan at p (workspace-relative, absolute, or a
// file URI) changed outside the agent: the user edited or saved it in the
// editor. Every session that has it attached gets the `plan` update with the
// plan's current text; in build mode a plan whose steps are now all ticked
// becomes implemented. A path that is not inside the workspace is ignored,
// and so is every call once the manager is closed (Close waits for a call
// under way).
func (m *Manager) PlanChanged(p string) {
	if !m.startBackground() {
		return
	}
	defer m.wg.Done()
	wp, err := m.ws.Resolve(p)
	if err != nil {
		return
	}
	for _, s := range m.sessionsWithPlan(m.ws.Key(wp)) { // as plan_file names it
		s.sendPlanUpdate(m.base)
		s.completePlan(m.base)
	}
}

// planEdited follows an edit the agent applied to the session's attached
// plan (env.Apply sent this session its `plan` update): the other sessions
// with the same plan get theirs, and in build mode a plan whose steps are
// now all ticked becomes implemented.
func (s *Session) planEdited(ctx context.Context) {
	for _, o := range s.m.sessionsWithPlan(s.planFile()) {
		if o != s {
			o.sendPlanUpdate(ctx)
		}
	}
	s.completePlan(ctx)
}

// completePlan sets the attached plan's status to implemented when the
// session is in build mode and every step of the plan is ticked. Only the
// frontmatter changes, through the guarded edit path. A plan already
// implemented or archived is left alone.
func (s *Session) completePlan(ctx context.Context) {
	m := s.m
	rel := s.planFile()
	if rel == "" || s.State().Mode != agentproto.ModeBuild {
		return
	}
	if _, busy := m.implementing.LoadOrStore(rel, struct{}{}); busy {
		return // the other trigger sets it
	}
	defer m.implementing.Delete(rel)
	text, err := m.readPlanText(rel)
	if err != nil {
		return
	}
	plan, err := workspace.ParsePlan(text)
	if err != nil {
		return
	}
	if plan.Meta != nil && (plan.Meta.Status == agentproto.PlanImplemented || plan.Meta.Status == agentproto.PlanArchived) {
		// Set by the builder with its last tick, or by the user in the
		// editor: the plan's lock goes as when agentls sets it.
		m.planFinishedLock(rel)
		return
	}
	if len(plan.Steps) == 0 || plan.StepsDone() < len(plan.Steps) {
		return
	}
	if err := m.setPlanStatus(ctx, s, rel, agentproto.PlanImplemented); err != nil {
		m.planStatusFailed(ctx, rel, agentproto.PlanImplemented, err)
		return
	}
	slog.Info("plan implemented", "plan", rel, "session", s.ID())
}

// ArchivePlan sets the status of the plan at p (workspace-relative, absolute
// or a file URI) to archived, the user's end of its lifecycle. Only the
// frontmatter changes, through the guarded edit path as guard.SystemActor
// (plan-mode rules: nothing but a `.plan` file can change), for no session.
// It returns the plan as a session's plan_file names it (workspace.Key:
// workspace-relative, or absolute in another folder than the root).
func (m *Manager) ArchivePlan(ctx context.Context, p string) (string, error) {
	wp, err := m.planPath(p)
	if err != nil {
		return "", err
	}
	key := m.ws.Key(wp)
	if err := m.setPlanStatus(ctx, nil, key, agentproto.PlanArchived); err != nil {
		var fe *workspace.FrontmatterError
		if errors.As(err, &fe) {
			return "", invalidf("cannot archive %s: %v", key, fe)
		}
		return "", fmt.Errorf("archive plan %s: %w", key, err)
	}
	return key, nil
}

// BuildPlan starts a build session with the plan at p (workspace-relative,
// absolute or a file URI) attached: the user's manual switch to build, so the
// plan becomes approved. The session is titled after the plan; the builder's
// system prompt carries the plan from its first turn.
func (m *Manager) BuildPlan(ctx context.Context, p string) (agentproto.Session, error) {
	if err := m.buildRefused(); err != nil {
		return agentproto.Session{}, err
	}
	wp, err := m.planPath(p)
	if err != nil {
		return agentproto.Session{}, err
	}
	key := m.ws.Key(wp)                            // plan_file: a plan of another folder than the root is named absolutely
	if err := m.commentsRefusal(key); err != nil { // plan_comments.go
		return agentproto.Session{}, err
	}
	title := "Build " + path.Base(key)
	if text, err := m.ws.ReadFile(wp); err == nil {
		if plan, err := workspace.ParsePlan(text); err == nil && plan.Meta != nil && strings.TrimSpace(plan.Meta.Title) != "" {
			title = strings.TrimSpace(plan.Meta.Title)
		}
	}
	s, err := m.createSession(sessionstore.Meta{Title: title, Mode: string(agentproto.ModeBuild), PlanFile: key})
	if err != nil {
		return agentproto.Session{}, err
	}
	info := s.Info()
	m.notes.ModeChanged(ctx, agentproto.ModeChangedParams{SessionID: info.SessionID, Mode: agentproto.ModeBuild, PlanFile: info.PlanFile, Source: "user"})
	m.markForBuild(ctx, s, key) // plan_status.go
	s.baselineNow(key)
	s.sendPlanUpdate(ctx)
	return s.Info(), nil
}

// planPath resolves a plan given by the user: an existing `.plan` file in
// the workspace.
func (m *Manager) planPath(p string) (workspace.Path, error) {
	if strings.TrimSpace(p) == "" {
		return workspace.Path{}, invalidf("path is required: the .plan file to act on")
	}
	wp, err := m.ws.Resolve(p)
	if err != nil {
		return workspace.Path{}, invalidf("path %q: %v", p, err)
	}
	if !wp.Exists || wp.IsDir || !m.Guard().IsPlanTarget(wp) {
		return workspace.Path{}, invalidf("%s is not an existing .plan file in the workspace", p)
	}
	return wp, nil
}
