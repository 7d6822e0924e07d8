package acp

import "sync"

// subagentCalls remembers which running tool calls shown in a session are
// a sub-agent's, with their _meta (subagentMeta), so that a permission
// request on one of them carries the same _meta and names the sub-agent
// (docs/subagents.md): a client can then tie the question to the call it
// shows under the task call.
type subagentCalls struct {
	mu   sync.Mutex
	meta map[string]map[string]any
}

// note keeps a sub-agent's call's _meta until the call ends.
func (c *subagentCalls) note(sessionID, callID string, meta map[string]string) {
	if meta == nil {
		return
	}
	m := make(map[string]any, len(meta))
	for k, v := range meta {
		m[k] = v
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.meta == nil {
		c.meta = map[string]map[string]any{}
	}
	c.meta[callKey(sessionID, callID)] = m
}

// forget drops an ended call.
func (c *subagentCalls) forget(sessionID, callID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.meta, callKey(sessionID, callID))
}

// of is the _meta of a running sub-agent's call (nil for the session's own).
func (c *subagentCalls) of(sessionID, callID string) map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.meta[callKey(sessionID, callID)]
}
