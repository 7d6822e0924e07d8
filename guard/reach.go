package guard

import (
	"slices"

	"github.com/agentls/agentls/agentproto"
)

// Reach is where a tool's effects go beyond its answer: every tool
// declares one, and the permission question of a call shows it. It is the
// protocol's type (agentproto.Reach), declared once there.
type Reach = agentproto.Reach

// The reaches (agentproto says what each means).
const (
	ReachWorkspace = agentproto.ReachWorkspace
	ReachNetwork   = agentproto.ReachNetwork
	ReachProcess   = agentproto.ReachProcess
	ReachEditor    = agentproto.ReachEditor
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
