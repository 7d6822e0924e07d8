package guard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentls/agentls/workspace"
)

// PlanLocks is what the guard needs to know of the plans being built: the
// plans attached to a build session, read by the caller from every session
// it knows (the session files on disk included, so the lock survives a
// restart).
type PlanLocks interface {
	// BuiltPlans lists every plan being built, with its builders.
	BuiltPlans() []BuiltPlan
}

// BuiltPlan is one plan being built.
type BuiltPlan struct {
	// Rel is the plan's workspace-relative path, with '/', for a plan the
	// workspace's own sessions build; for one from the registry
	// (LockRegistry), how the checking workspace names it (relative when it
	// lies inside, else absolute).
	Rel string
	// Abs, for a plan from the registry, is its absolute resolved path; ""
	// for the workspace's own (resolved from Rel).
	Abs string
	// Workspace, for a plan from the registry, is the builder's workspace
	// root: its Builders are sessions of that workspace, not of the one
	// checking.
	Workspace string
	// Builders are the ids of the build sessions that have it attached:
	// each of them may change it.
	Builders []string
}

// builtBy reports whether the acting session (of the workspace root) is
// one of the plan's builders.
func (bp BuiltPlan) builtBy(session, root string) bool {
	return slices.Contains(bp.Builders, session) && (bp.Workspace == "" || bp.Workspace == root)
}

// abs is the plan's absolute resolved path as the guard of ws sees it; ""
// when the workspace cannot resolve it (nothing to protect here).
func (bp BuiltPlan) abs(ws *workspace.Workspace) string {
	if bp.Abs != "" {
		return bp.Abs
	}
	lp, err := ws.Resolve(bp.Rel)
	if err != nil {
		return ""
	}
	return lp.Abs
}

// builders names the building sessions in a refusal's hint.
func (bp BuiltPlan) builders() string {
	s := strings.Join(bp.Builders, ", ")
	if bp.Workspace != "" {
		s += " (workspace " + bp.Workspace + ")"
	}
	return s
}

// PlanBuiltMessage is the Error() of a ReasonPlanBuilt refusal.
func PlanBuiltMessage(rel string) string {
	return rel + " is being built by another session; it can change only through that session or in the editor"
}

// builtPlanRefusal refuses a change that would change, move or delete a plan
// that another session is building: a target that resolves to the plan, or,
// for a delete or a rename, a folder that holds it. The builders themselves
// and the system identity (State.Plans nil) are not held back. The list of
// plans is read only when a target could be one: a `.plan` file, or a folder
// to delete or rename.
func (g *Guard) builtPlanRefusal(st State, tool string, kind Kind, change workspace.ChangeKind, targets []target, paths []workspace.Path) *Refusal {
	if st.Plans == nil {
		return nil
	}
	removes := change == workspace.ChangeDelete || change == workspace.ChangeRename
	need := false
	for _, p := range paths {
		need = need || strings.HasSuffix(p.Abs, ".plan") || (removes && p.IsDir)
	}
	if !need {
		return nil
	}
	for _, bp := range st.Plans.BuiltPlans() {
		if bp.builtBy(st.Session, g.ws.Root()) {
			continue
		}
		lp := bp.abs(g.ws)
		if lp == "" {
			continue // no such file in this workspace: nothing to protect
		}
		for i, t := range targets {
			p := paths[i]
			how := ""
			switch {
			case p.Abs == lp:
				how = fmt.Sprintf("%q is %s", t.given, bp.Rel)
			case removes && strictlyUnder(lp, p.Abs):
				how = fmt.Sprintf("%q holds %s", t.given, bp.Rel)
			default:
				continue
			}
			return refuse(st, tool, kind, ReasonPlanBuilt, bp.Rel, fmt.Sprintf(
				"%s, the approved plan build session %s is carrying out; only that session or the user (in the editor) may change it. "+
					"Write a new plan under another name, or ask the user to change this one", how, bp.builders()))
		}
	}
	return nil
}
