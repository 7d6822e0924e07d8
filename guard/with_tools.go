package guard

// WithTools returns a copy of the guard that judges the calls of tools
// instead of the tools it was built with: a session with more tools than
// the registry's (MCP servers' tools) is judged by such a copy, with every
// other trait of the guard (configuration, state, plan-only) kept.
func (g *Guard) WithTools(tools *Tools) *Guard {
	c := *g
	c.tools = tools
	return &c
}
