package agent

import (
	"runtime"
	"strings"
	"sync/atomic"

	"github.com/agentls/agentls/agent/agentkinds"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/permission"
)

// A sub-agent is a session like any other, started by its parent's `task`
// call, under the same manager, guard, permission service and sandbox
// (docs/subagents.md). What makes it a child is its subLink: its mode is
// its root's, read at every call; its tools are its kind's (a guard.Grant
// on every State it reads); its permissions are its root's; what it shows
// the editor goes to its root's stream (subagent_notes.go).

// subLink is what a sub-agent's session knows of its place in the tree.
type subLink struct {
	// root is the top session of the tree; parent the session whose task
	// call started this one (the root, or another sub-agent).
	root, parent *Session
	kind         *agentkinds.Kind
	// key names the child in a scripted model's children sections
	// ("explore-1"; "build-1/explore-2" below another child).
	key string
	// depth is 1 for a child of the root.
	depth int
	// callID is the parent's task call, as the parent's history has it;
	// parentWire is that call's id as the root's stream shows it.
	callID, parentWire string
	// short is the session id's last 8 characters, for log lines.
	short string
	grant *guard.Grant
	// grantTools are the tools its grant holds (createSessionOf makes it).
	grantTools []string
	// maxTurns and maxTokens are the child's budget; turns and tokens
	// what it spent.
	maxTurns, maxTokens int
	turns, tokens       atomic.Int64
}

// exhausted reports why the child cannot make another model request ("" when
// it can).
func (l *subLink) exhausted() string {
	switch {
	case l.turns.Load() >= int64(l.maxTurns):
		return "it used its budget of model requests"
	case l.tokens.Load() >= int64(l.maxTokens):
		return "it used its budget of tokens"
	}
	return ""
}

// rootSession is the top session of s's tree (s itself for a root).
func (s *Session) rootSession() *Session {
	if s.sub != nil {
		return s.sub.root
	}
	return s
}

// faceID is the session the editor knows s by: its root's id. A face
// shows a sub-agent's calls, questions, permissions and edits in its
// root's session.
func (s *Session) faceID() string { return s.rootSession().meta.ID }

// requester names who asks in a permission request: the tool, and for a
// sub-agent the sub-agent too.
func (s *Session) requester(tool string) string {
	if s.sub == nil {
		return tool
	}
	return permission.SubagentRequester(tool, s.sub.key+" "+s.sub.short)
}

// wireCallID is the id of s's tool call id as the editor's stream shows it:
// a sub-agent's ids are prefixed by its short id, so that they never
// collide with its root's or a sibling's.
func (s *Session) wireCallID(id string) string {
	if s.sub == nil {
		return id
	}
	return s.sub.short + "/" + id
}

// ShortID is the last 8 characters of a session id (a UUIDv7's random
// part), for log lines.
func ShortID(id string) string {
	id = strings.ReplaceAll(id, "-", "")
	if len(id) <= 8 {
		return id
	}
	return id[len(id)-8:]
}

// offered keeps the specs of the tools the sub-agent's grant holds.
func (l *subLink) offered(specs []llm.ToolSpec) []llm.ToolSpec {
	out := make([]llm.ToolSpec, 0, len(specs))
	for _, t := range specs {
		if l.grant.Allows(t.Name) {
			out = append(out, t)
		}
	}
	return out
}

// batchWidth is how many of a batch of read-only calls run at once: as
// many as the machine has processors, and at least as many as the batch
// has task calls up to subagents.max_parallel, so that parallel explorers
// all run (each waits for its slot in the root's bound, subTree.acquire).
func (s *Session) batchWidth(batch []agentproto.ToolCall) int {
	tasks := 0
	for _, c := range batch {
		if c.Name == agentkinds.TaskTool {
			tasks++
		}
	}
	return max(runtime.GOMAXPROCS(0), min(tasks, s.m.subagentLimits().MaxParallel))
}

// driveable refuses a user's prompt or mode switch on a sub-agent's
// session: it has no mode of its own and runs only under its parent's
// task call; its file is the record of that run.
func (s *Session) driveable() error {
	s.mu.Lock()
	parent := s.meta.ParentID
	s.mu.Unlock()
	if parent == "" {
		return nil
	}
	return invalidf("session %s is a sub-agent's (started by session %s): it runs only under its parent's task call; prompt the parent instead", s.meta.ID, parent)
}
