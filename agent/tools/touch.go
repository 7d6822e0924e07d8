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
	return pathChange{tool: "touch", label: "create", check: refuseDir, compute: (*workspace.Workspace).ComputeTouch,
		output: func(rp workspace.Path, c workspace.Change) any {
			return TouchOutput{Path: rp.Rel, Created: c.Kind == workspace.ChangeCreate}
		},
	}.run(ctx, env, p.Path)
}
