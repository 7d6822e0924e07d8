package tools

import (
	"context"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

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

// rmTool deletes a file or folder.
var rmTool = New(Def[RmParams]{Name: "rm", Kind: "delete", Run: runRm,
	Guard: guard.Decl{Class: guard.ClassMutating, Kind: guard.KindDelete, Interaction: guard.Unattended, Plan: guard.BuildOnly, Reach: agentproto.ReachWorkspace,
		Paths: []guard.PathArg{{Name: "path", Role: guard.Target}}},
})
