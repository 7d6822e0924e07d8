package tools

import (
	"context"
	_ "embed"

	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
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
	return pathChange{tool: "rm", label: "delete", check: rmCheck,
		compute: func(ws *workspace.Workspace, rp workspace.Path) (workspace.Change, error) {
			return ws.ComputeRemove(rp, p.Recursive)
		},
		output: func(rp workspace.Path, _ workspace.Change) any {
			return RmOutput{Path: rp.Rel, Removed: true, WasDir: rp.IsDir}
		},
	}.run(ctx, env, p.Path)
}

// rmCheck is rm's pathChange check: p exists and is not a workspace folder.
func rmCheck(_ *workspace.Workspace, p workspace.Path, arg string) *Result {
	switch {
	case !p.Exists:
		return failed("%s does not exist", arg)
	case p.Abs == p.Folder:
		return failed("refusing to delete the workspace folder itself")
	}
	return nil
}
