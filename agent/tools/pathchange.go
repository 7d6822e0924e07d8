package tools

import (
	"context"

	"github.com/agentls/agentls/workspace"
)

// PathParams are the arguments of a tool whose one argument is the path it
// changes (mkdir, touch).
type PathParams struct {
	Path string `json:"path"`
}

// CreatedOutput is the result of mkdir and touch: the path, and whether the
// call created it.
type CreatedOutput struct {
	Path    string `json:"path"`
	Created bool   `json:"created"`
}

// pathChange is the course of a tool that changes the one path its "path"
// argument names (write, edit, touch, mkdir, rm): resolve the argument, check
// the path, compute the change, apply it under a label, report it. The
// tool's own file gives what is its own: the check, the computation and the
// result.
type pathChange struct {
	// tool is the tool's name, for Env.Apply and the wording of a failed
	// computation ("rm a/b: …").
	tool string
	// label is the change's verb in the label the editor shows: "delete"
	// labels the change "delete a/b".
	label string
	// check refuses a path the tool does not change (nil: none checked): a
	// non-nil Result ends the call with it. arg is the path as given.
	check func(ws *workspace.Workspace, p workspace.Path, arg string) *Result
	// compute computes the change of p.
	compute func(ws *workspace.Workspace, p workspace.Path) (workspace.Change, error)
	// recordsPlans, when set, records an applied change of a `.plan` file
	// with Env.PlanWritten (write and edit can write plans).
	recordsPlans bool
	// output is the result of the applied change c of p.
	output func(p workspace.Path, c workspace.Change) any
}

// run changes the path arg names.
func (pc pathChange) run(ctx context.Context, env Env, arg string) (Result, error) {
	rp, fail := resolve(env, "path", arg)
	if fail != nil {
		return *fail, nil
	}
	ws := env.Workspace()
	if pc.check != nil {
		if fail := pc.check(ws, rp, arg); fail != nil {
			return *fail, nil
		}
	}
	c, err := pc.compute(ws, rp)
	if err != nil {
		return Failf("%s %s: %v", pc.tool, rp.Rel, err), nil
	}
	return apply(ctx, env, pc.tool, pc.label+" "+rp.Rel, c, func() Result {
		if pc.recordsPlans && isPlanFile(rp) {
			env.PlanWritten(env.Workspace().Key(rp), c.After)
		}
		return OK(pc.output(rp, c))
	})
}

// refuseDir is a pathChange check: the tool changes files, not folders.
func refuseDir(_ *workspace.Workspace, p workspace.Path, _ string) *Result {
	if p.IsDir {
		return failed("%s is a directory", p.Rel)
	}
	return nil
}
