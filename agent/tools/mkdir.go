package tools

import (
	"context"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// runMkdir runs mkdir.
func runMkdir(ctx context.Context, env Env, p PathParams) (Result, error) {
	return pathChange{tool: "mkdir", label: "create folder", check: mkdirCheck, compute: (*workspace.Workspace).ComputeMkdir,
		output: func(rp workspace.Path, _ workspace.Change) any { return CreatedOutput{Path: rp.Rel, Created: true} },
	}.run(ctx, env, p.Path)
}

// mkdirCheck is mkdir's pathChange check: an existing folder is a success
// without a change, an existing file a failure.
func mkdirCheck(_ *workspace.Workspace, p workspace.Path, _ string) *Result {
	switch {
	case p.IsDir:
		r := OK(CreatedOutput{Path: p.Rel, Created: false})
		return &r
	case p.Exists:
		return failed("%s exists and is a file", p.Rel)
	}
	return nil
}

// mkdirTool creates a folder and any missing parents.
var mkdirTool = New(Def[PathParams]{Name: "mkdir", Kind: "edit", Run: runMkdir,
	Guard: guard.Decl{Class: guard.ClassMutating, Kind: guard.KindMkdir, Interaction: guard.Unattended, Plan: guard.BuildOnly, Reach: agentproto.ReachWorkspace,
		Paths: []guard.PathArg{{Name: "path", Role: guard.Target}}},
})
