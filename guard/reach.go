package guard

import (
	"fmt"
	"slices"

	"github.com/agentls/agentls/agentproto"
)

// knownReach reports whether r is one of the reaches.
func knownReach(r agentproto.Reach) bool {
	switch r {
	case agentproto.ReachWorkspace, agentproto.ReachNetwork, agentproto.ReachProcess, agentproto.ReachEditor:
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
	return d.Reach == agentproto.ReachNetwork && st.planMode() && !slices.Contains(g.networkTools, d.Name)
}

// networkHint is how a user lets d, a tool of network reach, run in plan
// mode: list it in plan_mode.allow_network_tools, or d's own remedy.
func networkHint(d Decl) string {
	h := fmt.Sprintf("%s has network reach (what it is given may leave the machine), so it runs in plan mode only when the user lists it in plan_mode.allow_network_tools (`plan_mode.allow_network_tools: [%s]`)", d.Name, d.Name)
	if d.NetworkRemedy != "" {
		h += ", " + d.NetworkRemedy
	}
	return h
}
