package agent

import (
	"log/slog"
	"os"
	"path/filepath"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/sessionstore"
)

// A session that builds a plan registers it in the state folder's plan
// locks (guard.LockRegistry), so that every other workspace (the project's
// parent opened in another window, an ACP cwd), face and process refuses
// to change it as this workspace's own sessions already do. The entry is
// written when the session's metadata says build mode with the plan
// attached (approval, a switch to build, agentls.buildPlan, a session
// loaded in build mode) and removed when it no longer does (a switch to
// plan, another plan) or the plan is implemented or archived. An entry a
// killed process left behind holds only while the session file says the
// session builds the plan (LockRegistry.Live).

// syncPlanLock registers or releases the session's plan lock after meta
// was stored. s.saveMu must be held (it orders the metadata writes, and so
// the lock's).
func (s *Session) syncPlanLock(meta sessionstore.Meta) {
	m := s.m
	if m.locks == nil {
		return
	}
	want := m.planLockPath(meta)
	if want == s.lockedPlan {
		return
	}
	if old := s.lockedPlan; old != "" {
		m.releasePlanLock(old, meta.ID)
	}
	s.lockedPlan = want
	if want == "" {
		return
	}
	if err := m.locks.Take(guard.PlanLock{Plan: want, Session: meta.ID, Workspace: m.ws.Root(), PID: os.Getpid()}); err != nil {
		slog.Warn("plan lock: register", "plan", want, "session", meta.ID, "err", err)
	}
}

// planLockPath is the absolute resolved path of the plan meta builds, ""
// when it builds none.
func (m *Manager) planLockPath(meta sessionstore.Meta) string {
	if agentproto.Mode(meta.Mode) != agentproto.ModeBuild || meta.PlanFile == "" {
		return ""
	}
	p, err := m.ws.Resolve(meta.PlanFile)
	if err != nil {
		return ""
	}
	return p.Abs
}

// releasePlanLock removes the session's entry for the plan at abs (every
// other builder, of this workspace or another, keeps its own).
func (m *Manager) releasePlanLock(abs, session string) {
	if err := m.locks.Release(abs, session, m.ws.Root()); err != nil {
		slog.Warn("plan lock: release", "plan", abs, "session", session, "err", err)
	}
}

// planFinishedLock releases the entry of the plan rel that a session of
// this workspace registered, once the plan is implemented or archived:
// nothing builds it any more. Cheap when there is none (one listing of the
// small registry folder), as every later change of a finished plan calls
// it again.
func (m *Manager) planFinishedLock(rel string) {
	if m.locks == nil {
		return
	}
	p, err := m.ws.Resolve(rel)
	if err != nil {
		return
	}
	for _, l := range m.locks.Entries(p.Abs) {
		if l.Workspace != m.ws.Root() {
			continue // another workspace's: it stops holding by itself (LockRegistry.Live)
		}
		if err := m.locks.Release(p.Abs, l.Session, m.ws.Root()); err != nil {
			slog.Warn("plan lock: release", "plan", p.Abs, "session", l.Session, "err", err)
		}
	}
}

// ownSessionMetas is the metadata of every session of this workspace: the
// session files on disk overlaid with the sessions in memory.
func (m *Manager) ownSessionMetas() map[string]sessionstore.Meta {
	metas, err := m.store.List()
	if err != nil {
		slog.Warn("plan locks: list sessions", "err", err)
	}
	byID := make(map[string]sessionstore.Meta, len(metas))
	for _, meta := range metas {
		byID[meta.ID] = meta
	}
	for _, s := range m.loaded() {
		s.mu.Lock()
		byID[s.meta.ID] = s.meta
		s.mu.Unlock()
	}
	return byID
}

// otherBuiltPlans are the registry's live entries of other workspaces, as
// guard.BuiltPlans named from this one.
func (m *Manager) otherBuiltPlans() []guard.BuiltPlan {
	var out []guard.BuiltPlan
	for _, l := range m.locks.Live() {
		if l.Workspace == m.ws.Root() {
			continue // this workspace's own sessions say it (BuiltPlans)
		}
		name := l.Plan
		if rel := m.ws.RelOf(l.Plan); rel != "" && !filepath.IsAbs(rel) {
			name = rel
		}
		out = append(out, guard.BuiltPlan{Rel: name, Abs: l.Plan, Workspace: l.Workspace, Builders: []string{l.Session}})
	}
	return out
}
