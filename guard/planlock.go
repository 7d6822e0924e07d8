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
	// Rel is the plan's workspace-relative path, with '/'.
	Rel string
	// Builders are the ids of the build sessions that have it attached:
	// each of them may change it.
	Builders []string
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
		if slices.Contains(bp.Builders, st.Session) {
			continue
		}
		lp, err := g.ws.Resolve(bp.Rel)
		if err != nil {
			continue // no such file in this workspace: nothing to protect
		}
		for i, t := range targets {
			p := paths[i]
			how := ""
			switch {
			case p.Abs == lp.Abs:
				how = fmt.Sprintf("%q is %s", t.given, bp.Rel)
			case removes && strictlyUnder(lp.Abs, p.Abs):
				how = fmt.Sprintf("%q holds %s", t.given, bp.Rel)
			default:
				continue
			}
			return refuse(st, tool, kind, ReasonPlanBuilt, bp.Rel, fmt.Sprintf(
				"%s, the approved plan build session %s is carrying out; only that session or the user (in the editor) may change it. "+
					"Write a new plan under another name, or ask the user to change this one", how, strings.Join(bp.Builders, ", ")))
		}
	}
	return nil
}
