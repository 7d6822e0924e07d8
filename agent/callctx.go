package agent

import (
	"context"
	"encoding/json"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// toolCallKey is the context key of the tool call being run.
type toolCallKey struct{}

// withToolCall marks ctx as the context of tool call id.
func withToolCall(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, toolCallKey{}, id)
}

// ToolCallID is the id of the tool call whose run ctx belongs to ("" outside
// a tool call). An editor uses it to attach what it sends (an edit's diff, a
// permission request) to the tool call the client already shows.
func ToolCallID(ctx context.Context) string {
	id, _ := ctx.Value(toolCallKey{}).(string)
	return id
}

// callerKey is the context key of the request a turn does work for.
type callerKey struct{}

// WithCaller marks ctx as doing work for the request whose context is
// caller: a request that decides what a turn waits for (agent/resolvePlan,
// agent/setMode approving the plan) waits while the turn carries the
// decision out (the plan's status, the mode), and a face may need to tell
// that work from the turn's own (server/reply_order.go: an edit made for
// a command does not wait for that command's reply).
func WithCaller(ctx, caller context.Context) context.Context {
	return context.WithValue(ctx, callerKey{}, caller)
}

// Caller is the context of the request ctx does work for (WithCaller).
func Caller(ctx context.Context) (context.Context, bool) {
	caller, ok := ctx.Value(callerKey{}).(context.Context)
	return caller, ok
}

// FileSource is an Editor whose client holds the text of workspace files
// (ACP's fs/read_text_file: unsaved buffers included). Before a tool call
// reads or edits files, the agent asks it to bring the workspace's view of
// those files up to date (the overlay), so that the call sees what the user
// sees. Paths are resolved, existing files inside the workspace.
type FileSource interface {
	SyncFiles(ctx context.Context, sessionID string, paths []workspace.Path)
}

// syncCallFiles hands the existing files a call names (its declared path
// arguments) to the editor's FileSource, if it has one.
func (s *Session) syncCallFiles(ctx context.Context, tool string, args json.RawMessage) {
	src, ok := s.m.editor.(FileSource)
	if !ok {
		return
	}
	var paths []workspace.Path
	for _, v := range s.callPaths(tool, args) {
		p, err := s.m.ws.Resolve(v)
		if err != nil || !p.Exists || p.IsDir {
			continue
		}
		paths = append(paths, p)
	}
	if len(paths) > 0 {
		src.SyncFiles(ctx, s.faceID(), paths)
	}
}

// callPaths are the paths a call of tool is given in its declared source
// and target arguments, as written.
func (s *Session) callPaths(tool string, args json.RawMessage) []string {
	d, ok := s.tools().Declarations().Lookup(tool)
	if !ok {
		return nil
	}
	var named map[string]any
	if json.Unmarshal(args, &named) != nil {
		return nil
	}
	var out []string
	for _, pa := range d.Paths {
		v, _ := named[pa.Name].(string)
		if v == "" || (pa.Role != guard.Source && pa.Role != guard.Target) {
			continue
		}
		out = append(out, v)
	}
	return out
}

// ToolCallView is how the editor shows a call of tool name with arguments
// args: its title and its ACP kind (for a replayed history).
func (m *Manager) ToolCallView(name, args string) (title, kind string) {
	s := &Session{m: m}
	c := agentproto.ToolCall{Name: name, Arguments: args}
	return s.title(c), s.kind(c)
}

// SessionInfo returns a session as the protocol shows it, loading it from
// disk when it is not in memory.
func (m *Manager) SessionInfo(id string) (agentproto.Session, error) {
	s, err := m.session(id)
	if err != nil {
		return agentproto.Session{}, err
	}
	return s.Info(), nil
}
