package tools

import (
	"context"
	_ "embed"

	"github.com/agentls/agentls/guard"
)

//go:embed descriptions/mkdir.md
var mkdirDescription string

// MkdirParams are the arguments of mkdir.
type MkdirParams struct {
	Path string `json:"path"`
}

// MkdirOutput is mkdir's result.
type MkdirOutput struct {
	Path    string `json:"path"`
	Created bool   `json:"created"`
}

// mkdirTool creates a folder and any missing parents.
var mkdirTool = New(Def[MkdirParams]{Name: "mkdir", Description: mkdirDescription, Kind: "edit", Run: runMkdir,
	Title: func(p MkdirParams) string { return title("mkdir", p.Path) },
	Guard: guard.Decl{Class: guard.ClassMutating, Kind: guard.KindMkdir, Interaction: guard.Unattended, Plan: guard.BuildOnly,
		Paths: []guard.PathArg{{Name: "path", Role: guard.Target}}},
})

// runMkdir runs mkdir.
func runMkdir(ctx context.Context, env Env, p MkdirParams) (Result, error) {
	rp, fail := resolve(env, "path", p.Path)
	if fail != nil {
		return *fail, nil
	}
	if rp.Exists {
		if rp.IsDir {
			return OK(MkdirOutput{Path: rp.Rel, Created: false}), nil
		}
		return Failf("%s exists and is a file", rp.Rel), nil
	}
	c, err := env.Workspace().ComputeMkdir(rp)
	if err != nil {
		return Failf("mkdir %s: %v", rp.Rel, err), nil
	}
	if fail, err := apply(ctx, env, "mkdir", "create folder "+rp.Rel, c); fail != nil || err != nil {
		return deref(fail), err
	}
	return OK(MkdirOutput{Path: rp.Rel, Created: true}), nil
}
