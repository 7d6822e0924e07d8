package tools

import (
	"context"
	_ "embed"

	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
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
	return pathChange{tool: "mkdir", label: "create folder", check: mkdirCheck, compute: (*workspace.Workspace).ComputeMkdir,
		output: func(rp workspace.Path, _ workspace.Change) any { return MkdirOutput{Path: rp.Rel, Created: true} },
	}.run(ctx, env, p.Path)
}

// mkdirCheck is mkdir's pathChange check: an existing folder is a success
// without a change, an existing file a failure.
func mkdirCheck(_ *workspace.Workspace, p workspace.Path, _ string) *Result {
	switch {
	case p.IsDir:
		r := OK(MkdirOutput{Path: p.Rel, Created: false})
		return &r
	case p.Exists:
		return failed("%s exists and is a file", p.Rel)
	}
	return nil
}
