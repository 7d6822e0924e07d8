package guard

import (
	"fmt"

	"github.com/agentls/agentls/workspace"
)

// target is one path a call or change touches, as the caller gave it.
type target struct {
	role  string // "path", "from", "to"
	given string
	// source: the path a move takes away (it creates no folders).
	source bool
}

// decide resolves every target from scratch and applies the rules for one
// change of the given kind: protected places (protected.go) are refused in
// every mode; in build mode the rest is allowed; in plan mode each change
// must keep to plan documents, and the parent folders it would create to
// the mkdir rule. kind is what the refusal reports.
func (g *Guard) decide(st State, tool string, kind Kind, change workspace.ChangeKind, targets []target) *Refusal {
	g = g.forCheck()
	paths := make([]workspace.Path, len(targets))
	for i, t := range targets {
		if t.given == "" {
			return g.badTarget(st, tool, kind, t.given, fmt.Errorf("%s is empty", t.role))
		}
		p, err := g.ws.Resolve(t.given)
		if err != nil {
			if pr := g.protectedGiven(t.given); pr != nil {
				return protectedRefusal(st, tool, kind, t.given, howInside, pr)
			}
			return g.badTarget(st, tool, kind, t.given, err)
		}
		if err := g.dotDotErr(t.given, p); err != nil {
			return g.badTarget(st, tool, kind, t.given, err)
		}
		paths[i] = p
	}
	for i, t := range targets {
		if pr, how := g.touchesProtected(change, t.given, paths[i]); pr != nil {
			return protectedRefusal(st, tool, kind, t.given, how, pr)
		}
	}
	if r := g.builtPlanRefusal(st, tool, kind, change, targets, paths); r != nil {
		return r
	}
	if !st.planMode() {
		return nil
	}
	for i, t := range targets {
		var err error
		switch change {
		case workspace.ChangeEdit, workspace.ChangeCreate:
			err = g.writeErr(t.given, paths[i])
		case workspace.ChangeRename:
			err = g.planFileErr(t.given, paths[i])
			if err == nil && !t.source {
				err = g.hiddenErr(t.given, paths[i], false)
			}
		case workspace.ChangeDelete:
			err = g.rmErr(t.given, paths[i])
		case workspace.ChangeMkdir:
			err = g.mkdirErr(t.given, paths[i])
			if err == nil {
				err = g.hiddenErr(t.given, paths[i], true)
			}
		default:
			err = fmt.Errorf("unknown change kind %q", change)
		}
		if err == nil && !t.source && change != workspace.ChangeDelete {
			err = g.parentsErr(t.given, paths[i])
		}
		if err != nil {
			return g.planRefusal(st, tool, kind, t.given, err.Error())
		}
	}
	return nil
}

// parentsErr judges the folders a change would create along with its
// target (a new file's, a new folder's or a move destination's missing
// parents) as the mkdir of each: in plan mode only inside the plans folder,
// or on the way to it (creating a configured plans folder such as
// docs/plans needs docs/ too).
func (g *Guard) parentsErr(given string, p workspace.Path) error {
	missing := g.ws.MissingParents(p)
	if len(missing) == 0 {
		return nil
	}
	plans, plansErr := g.plansReal()
	for _, dir := range missing {
		if plansErr == nil && strictlyUnder(plans, dir.Abs) {
			continue
		}
		if err := g.mkdirErr(given, dir); err != nil {
			return fmt.Errorf("%q would also create the missing folder %s (%v), and in plan mode folders may be created only inside %s",
				given, dir.Rel, err, g.plansHint())
		}
	}
	return nil
}

// badTarget refuses a call or change whose arguments or targets cannot be
// checked: a plan-mode refusal in plan mode, ReasonBadTarget in build mode.
func (g *Guard) badTarget(st State, tool string, kind Kind, given string, err error) *Refusal {
	if st.planMode() {
		return g.planRefusal(st, tool, kind, given, err.Error())
	}
	return refuse(st, tool, kind, ReasonBadTarget, given, err.Error())
}

// planRefusal is a plan-mode refusal whose hint says what went wrong and
// what is allowed.
func (g *Guard) planRefusal(st State, tool string, kind Kind, given, detail string) *Refusal {
	hint := g.allowedHint(kind)
	if detail != "" {
		hint = detail + "; " + hint
	}
	return refuse(st, tool, kind, ReasonPlanMode, given, hint)
}

// allowedHint says what plan mode allows for a kind of tool.
func (g *Guard) allowedHint(kind Kind) string {
	plans := g.plansHint()
	switch kind {
	case KindFileEdit:
		return "in plan mode only .plan files may be written; write your plan to " + plans + "<name>.plan"
	case KindMove:
		return "in plan mode mv may only rename a .plan file to another .plan file name"
	case KindDelete:
		return "in plan mode rm may only remove a .plan file or an empty folder inside " + plans
	case KindMkdir:
		return "in plan mode mkdir may only create folders inside " + plans
	case KindExecute:
		return "in plan mode no command may run; list the commands in the plan, they can run in build mode once the plan is approved"
	}
	return "in plan mode only read-only tools and changes to .plan files are allowed; write your plan to " + plans + "<name>.plan"
}
