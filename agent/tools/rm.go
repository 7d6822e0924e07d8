package tools

import (
	"context"
	_ "embed"

	"github.com/agentls/agentls/guard"
)

//go:embed descriptions/rm.md
var rmDescription string

// RmParams are the arguments of rm.
type RmParams struct {
	Path      string `json:"path"`
	Recursive bool   `json:"recursive,omitempty"`
}

// RmOutput is rm's result.
type RmOutput struct {
	Path    string `json:"path"`
	Removed bool   `json:"removed"`
	WasDir  bool   `json:"was_dir,omitempty"`
}

// rmTool deletes a file or folder.
var rmTool = New(Def[RmParams]{Name: "rm", Description: rmDescription, Kind: "delete", Run: runRm,
	Title: func(p RmParams) string { return title("rm", p.Path) },
	Guard: guard.Decl{Class: guard.ClassMutating, Kind: guard.KindDelete, Interaction: guard.Unattended, Plan: guard.BuildOnly,
		Paths: []guard.PathArg{{Name: "path", Role: guard.Target}}},
})

// runRm runs rm.
func runRm(ctx context.Context, env Env, p RmParams) (Result, error) {
	rp, fail := resolve(env, "path", p.Path)
	if fail != nil {
		return *fail, nil
	}
	if !rp.Exists {
		return Failf("%s does not exist", p.Path), nil
	}
	if rp.Abs == rp.Folder {
		return Failf("refusing to delete the workspace folder itself"), nil
	}
	c, err := env.Workspace().ComputeRemove(rp, p.Recursive)
	if err != nil {
		return Failf("rm %s: %v", rp.Rel, err), nil
	}
	if fail, err := apply(ctx, env, "rm", "delete "+rp.Rel, c); fail != nil || err != nil {
		return deref(fail), err
	}
	return OK(RmOutput{Path: rp.Rel, Removed: true, WasDir: rp.IsDir}), nil
}
