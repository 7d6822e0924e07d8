package agent

import (
	"context"

	"github.com/agentls/agentls/agentproto"
)

// treeNotes is the manager's Notifier: a root session's updates go to the
// editor as they are; a sub-agent's go to its root's stream, where the
// face knows a session (subagent tool calls with parentToolCallId and
// childSessionId, their progress while they run, usage folded into the
// root's usage_update, the instruction files its requests carry). What a
// sub-agent streams as text and its mode are not shown: its answer is its
// task call's result.
type treeNotes struct {
	editor Notifier
	m      *Manager
}

// Update routes one update (see treeNotes).
func (n treeNotes) Update(ctx context.Context, sessionID string, u Update) {
	s := n.m.loadedSession(sessionID)
	if s == nil || s.sub == nil {
		if usage, ok := u.(agentproto.UsageUpdate); ok && s != nil {
			u = s.tree.ownUsage(usage)
		}
		n.editor.Update(ctx, sessionID, u)
		return
	}
	root := s.sub.root
	switch v := u.(type) {
	case agentproto.ToolCallStarted:
		v.ToolCallID = s.wireCallID(v.ToolCallID)
		v.ParentToolCallID, v.ChildSessionID = s.sub.parentWire, s.meta.ID
		n.editor.Update(ctx, root.meta.ID, v)
	case UpdateToolCallDone:
		v.ToolCallID = s.wireCallID(v.ToolCallID)
		v.ParentToolCallID, v.ChildSessionID = s.sub.parentWire, s.meta.ID
		n.editor.Update(ctx, root.meta.ID, v)
	case UpdateToolCallProgress: // a running call's newest line (a command's output)
		n.editor.Update(ctx, root.meta.ID, v) // its id came from the call's context: the stream's already
	case agentproto.PlanUpdate:
		n.editor.Update(ctx, root.meta.ID, v) // the root's plan, ticked by a build child
	case agentproto.UsageUpdate:
		n.editor.Update(ctx, root.meta.ID, root.tree.childUsage(s.sub.parentWire, v))
	case agentproto.InstructionsLoaded:
		// Repository text that shaped the sub-agent's answer (a nested
		// AGENTS.md it read its way into): the user is shown it too.
		n.editor.Update(ctx, root.meta.ID, v)
	}
}

// ModeChanged: a sub-agent never changes its mode (it has its root's).
func (n treeNotes) ModeChanged(ctx context.Context, ev agentproto.ModeChangedParams) {
	if s := n.m.loadedSession(ev.SessionID); s != nil && s.sub != nil {
		return
	}
	n.editor.ModeChanged(ctx, ev)
}

// Notify passes the notify lines on.
func (n treeNotes) Notify(ctx context.Context, line string) { n.editor.Notify(ctx, line) }

// loadedSession is the session in memory with this id (nil if none).
func (m *Manager) loadedSession(id string) *Session {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sessions[id]
}
