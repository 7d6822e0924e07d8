package agent

import (
	"log/slog"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/sessionstore"
)

// A session file agentls did not make here — a cloned repository can
// commit .agentls/chats/<id>.chat — must not bring its own mode: only a
// human switches a session to build. The state folder records every
// session this user's agentls made (sessionstore.Known); a session file
// it does not know is taken in on its first load: plan mode, and the
// user's configured review and models instead of the file's, then it is
// recorded, so what the user sets from then on holds across restarts.

// recordSession records a session this agentls made, or whose metadata
// it saved, with what only the user may set of it.
func (m *Manager) recordSession(meta sessionstore.Meta) {
	if err := m.known.Add(m.ws.Root(), meta.ID, meta.Trusted()); err != nil {
		slog.Warn("session record", "session", meta.ID, "err", err)
	}
}

// takeIn is meta as a session loaded from disk may be trusted: as it is
// when this user's agentls made it or took it in before and last saved it
// so, else takenIn, saved, and recorded.
func (m *Manager) takeIn(meta sessionstore.Meta) sessionstore.Meta {
	root := m.ws.Root()
	if m.known.Has(root, meta.ID, meta.Trusted()) {
		return meta
	}
	taken := takenIn(meta, m.now())
	if taken != meta {
		slog.Warn("a session file agentls did not make here (it came with the workspace?): it loads in plan mode, with the configured review and models",
			"session", meta.ID, "mode", meta.Mode, "review", meta.Review)
		if err := m.store.SaveMeta(taken); err != nil {
			slog.Warn("session taken in: save", "session", meta.ID, "err", err)
		}
	}
	m.recordSession(taken)
	return taken
}

// takenIn is what a session file not made here keeps of meta: plan mode
// (entered now, when it said build) and no review or model choice of its
// own.
func takenIn(meta sessionstore.Meta, now time.Time) sessionstore.Meta {
	if agentproto.Mode(meta.Mode) != agentproto.ModePlan {
		meta.Mode = string(agentproto.ModePlan)
		meta.EnteredAt = now
		meta.EnteredReason = "a session file agentls did not make here: plan mode until you switch it"
	}
	meta.Review, meta.PlanModel, meta.BuildModel = "", "", ""
	return meta
}
