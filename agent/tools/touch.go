package tools

import (
	"context"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// runTouch runs touch.
func runTouch(ctx context.Context, env Env, p PathParams) (Result, error) {
	return pathChange{tool: "touch", label: "create", check: refuseDir, compute: (*workspace.Workspace).ComputeTouch,
		output: func(rp workspace.Path, c workspace.Change) any {
			return CreatedOutput{Path: rp.Rel, Created: c.Kind == workspace.ChangeCreate}
		},
	}.run(ctx, env, p.Path)
}

// touchTool creates an empty file if it does not exist; an existing file only
// gets a new modification time.
var touchTool = New(Def[PathParams]{Name: "touch", Kind: "edit", Run: runTouch,
	Guard: guard.Decl{Class: guard.ClassMutating, Kind: guard.KindFileEdit, Interaction: guard.Unattended, Plan: guard.BuildOnly, Reach: agentproto.ReachWorkspace,
		Paths: []guard.PathArg{{Name: "path", Role: guard.Target}}},
})
