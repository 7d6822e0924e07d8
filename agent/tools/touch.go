package tools

import (
	"context"
	_ "embed"

	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

//go:embed descriptions/touch.md
var touchDescription string

// TouchParams are the arguments of touch.
type TouchParams struct {
	Path string `json:"path"`
}

// TouchOutput is touch's result.
type TouchOutput struct {
	Path    string `json:"path"`
	Created bool   `json:"created"`
}

// touchTool creates an empty file if it does not exist; an existing file only
// gets a new modification time.
var touchTool = New(Def[TouchParams]{Name: "touch", Description: touchDescription, Kind: "edit", Run: runTouch,
	Title: func(p TouchParams) string { return title("touch", p.Path) },
	Guard: guard.Decl{Class: guard.ClassMutating, Kind: guard.KindFileEdit, Interaction: guard.Unattended, Plan: guard.BuildOnly,
		Paths: []guard.PathArg{{Name: "path", Role: guard.Target}}},
})

// runTouch runs touch.
func runTouch(ctx context.Context, env Env, p TouchParams) (Result, error) {
	rp, fail := resolve(env, "path", p.Path)
	if fail != nil {
		return *fail, nil
	}
	if rp.IsDir {
		return Failf("%s is a directory", rp.Rel), nil
	}
	c, err := env.Workspace().ComputeTouch(rp)
	if err != nil {
		return Failf("touch %s: %v", rp.Rel, err), nil
	}
	if fail, err := apply(ctx, env, "touch", "create "+rp.Rel, c); fail != nil || err != nil {
		return deref(fail), err
	}
	return OK(TouchOutput{Path: rp.Rel, Created: c.Kind == workspace.ChangeCreate}), nil
}
