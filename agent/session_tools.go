package agent

import (
	"context"
	"log/slog"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
)

// ToolSource supplies the tools a session has beyond the registry's: the
// MCP servers' tools (mcpclient). SessionTools starts what it needs (lazily,
// at a session's first tool listing) and returns the tools offered now; a
// server that cannot start is left out (its status says why).
type ToolSource interface {
	SessionTools(ctx context.Context, sessionID string) []tools.Tool
}

// sessionTools is a session's tool registry: the manager's, plus the
// tool source's tools of this session. seq orders the listings: the one
// asked for last is kept.
type sessionTools struct {
	reg *tools.Registry
	seq uint64
}

// loadTools asks the tool source for the session's tools (starting its
// servers on the first call) and makes the session's registry of them. It
// runs before each model request of the session and of its sub-agents (a
// sub-agent reloads its root's, so that a tool reclassified or gone while
// it runs is judged anew at its next request); the tool source keeps the
// servers' lists, so a listing costs no round trip.
func (s *Session) loadTools(ctx context.Context) {
	if s.sub != nil {
		s.sub.root.loadTools(ctx) // a sub-agent has its root's tools, narrowed by its grant
		return
	}
	src := s.m.toolSource
	if src == nil {
		return
	}
	// Sub-agents running in parallel list at once: a listing is kept
	// unless one asked for after it is kept already.
	seq := s.toolSeq.Add(1)
	extra := src.SessionTools(ctx, s.meta.ID)
	if len(extra) == 0 && s.toolset.Load() == nil {
		return
	}
	reg, err := tools.NewRegistry(append(s.m.baseTools(), extra...)...)
	if err != nil {
		slog.Error("session tools: the extra tools are left out", "session", s.meta.ID, "err", err)
		return
	}
	next := &sessionTools{reg: reg, seq: seq}
	for {
		cur := s.toolset.Load()
		if cur != nil && cur.seq > seq {
			return
		}
		if s.toolset.CompareAndSwap(cur, next) {
			return
		}
	}
}

// tools is the session's registry: the manager's unless the tool source
// gave it more.
func (s *Session) tools() *tools.Registry {
	if s.sub != nil {
		return s.sub.root.tools()
	}
	if ts := s.toolset.Load(); ts != nil {
		return ts.reg
	}
	return s.m.tools
}

// toolWaitsOnHuman reports whether the tool name, as the session's tools
// declare it, waits on the person (guard.WaitsOnHuman), and whether its
// answer comes from the editor (agentproto.ReachEditor): compaction never
// stubs the person's answers (viewState.keptWhole).
func (s *Session) toolWaitsOnHuman(name string) (waits, editor bool) {
	d, ok := s.tools().Declarations().Lookup(name)
	return ok && d.Interaction == guard.WaitsOnHuman, d.Reach == agentproto.ReachEditor
}

// toolActs reports whether the session's tool name is declared mutating:
// calling it again does it again (a command, a write, a mutating MCP
// call). An unknown tool (an MCP server gone since) counts as acting.
func (s *Session) toolActs(name string) bool {
	d, ok := s.tools().Declarations().Lookup(name)
	return !ok || d.Class == guard.ClassMutating
}

// guard is the guard in force, judging the session's own tools.
func (s *Session) guard() *guard.Guard {
	if s.sub != nil {
		return s.sub.root.guard()
	}
	g := s.m.Guard()
	if ts := s.toolset.Load(); ts != nil {
		return g.WithTools(ts.reg.Declarations())
	}
	return g
}

// baseTools are the manager's registry's tools, in order.
func (m *Manager) baseTools() []tools.Tool {
	out := make([]tools.Tool, 0, len(m.tools.Names()))
	for _, n := range m.tools.Names() {
		t, _ := m.tools.Lookup(n)
		out = append(out, t)
	}
	return out
}
