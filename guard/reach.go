package guard

import "slices"

// Reach is where a tool's effects go beyond its answer: every tool
// declares one, and the permission question of a call shows it.
type Reach string

// The reaches.
const (
	// ReachWorkspace tools read or change files of the workspace folders.
	ReachWorkspace Reach = "workspace"
	// ReachNetwork tools send or fetch over the network (a web fetch, a
	// remote MCP server): in plan mode they are refused unless the user
	// listed them in plan_mode.allow_network_tools, since what they send
	// may carry workspace text.
	ReachNetwork Reach = "network"
	// ReachProcess tools start processes (run).
	ReachProcess Reach = "process"
	// ReachEditor tools talk only to the editor and the user (questions,
	// the plan approval, mode switches).
	ReachEditor Reach = "editor"
)

// knownReach reports whether r is one of the reaches.
func knownReach(r Reach) bool {
	switch r {
	case ReachWorkspace, ReachNetwork, ReachProcess, ReachEditor:
		return true
	}
	return false
}

// WithNetworkTools returns a copy of the guard that allows these tools of
// network reach in plan mode (plan_mode.allow_network_tools); every other
// network tool is refused there.
func (g *Guard) WithNetworkTools(names ...string) *Guard {
	c := *g
	c.networkTools = slices.Clone(names)
	return &c
}

// networkRefused reports whether a call to d is refused for its reach:
// a network tool in plan mode that the user did not allow.
func (g *Guard) networkRefused(st State, d Decl) bool {
	return d.Reach == ReachNetwork && st.planMode() && !slices.Contains(g.networkTools, d.Name)
}
