package guard

import "github.com/agentls/agentls/agentproto"

// SystemActor is the identity under which agentls itself changes a plan:
// the status it writes when a plan is approved (an approved exit_plan_mode,
// agent/resolvePlan, a switch to build, agentls.buildPlan), implemented
// (every step ticked in build mode) or archived (agentls.archivePlan, the
// Archive code lens). Such a change is no session's tool call: both layers
// check it as the tool SystemActor under SystemState, the editor's request
// carries it as its actor, and its label starts with it. No tool may take
// the name (NewTools refuses it), and a session's state cannot act under it.
const SystemActor = "agentls"

// systemDecl is SystemActor's declaration: it rewrites one `.plan` file
// (its frontmatter), unattended. The model is never offered it.
var systemDecl = Decl{
	Name: SystemActor, Class: ClassPlanMutating, Kind: KindFileEdit,
	Paths:       []PathArg{{Name: "path", Role: Target}},
	Interaction: Unattended, Plan: OfferedInPlan, Reach: agentproto.ReachWorkspace,
}

// SystemState is the State SystemActor's changes are checked under, in
// whatever mode the session they concern is: plan mode's rules (nothing but
// a plan document may change, in every mode) and no plan lock (Plans nil:
// setting the status of a plan being built is agentls's own job).
func SystemState() State {
	return State{Mode: agentproto.ModePlan, EnteredReason: "agentls's own change to a plan's status", Session: SystemActor}
}

// isSystem reports whether a check is SystemActor's own: its tool and its
// state's session both name it.
func isSystem(st State, tool string) bool {
	return tool == SystemActor && st.Session == SystemActor
}
