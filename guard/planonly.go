package guard

import "github.com/agentls/agentls/agentproto"

// WithPlanOnly returns a copy of the guard under which every session counts
// as in plan mode, whatever its state says; reason says why and reaches the
// refusals. agentls uses it for a workspace rooted at the user's home folder
// (docs/guard.md, "Where the workspace may be"): build mode there would let
// the model change the shell's and ssh's start-up files, so the agent
// refuses to switch to it, and the guard holds even a session file that says
// build. "" keeps the modes as they are.
func (g *Guard) WithPlanOnly(reason string) *Guard {
	c := *g
	c.planOnly = reason
	return &c
}

// PlanOnly says why this workspace allows plan mode only ("" when it allows
// build mode).
func (g *Guard) PlanOnly() string { return g.planOnly }

// effective is the state the rules apply: plan mode under WithPlanOnly.
func (g *Guard) effective(st State) State {
	if g.planOnly != "" && st.Mode == agentproto.ModeBuild {
		st.Mode = agentproto.ModePlan
		st.EnteredReason = g.planOnly
	}
	return st
}
