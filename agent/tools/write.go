package tools

import (
	"context"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// WriteParams are the arguments of write.
type WriteParams struct {
	Path    string  `json:"path"`
	Content *string `json:"content" description:"The complete new text."`
}

// WriteOutput is write's result.
type WriteOutput struct {
	Path    string `json:"path"`
	Bytes   int    `json:"bytes"`
	Created bool   `json:"created"`
	Hash    string `json:"hash"`
}

// runWrite runs write.
func runWrite(ctx context.Context, env Env, p WriteParams) (Result, error) {
	if p.Content == nil {
		return Failf("content is required (use an empty string for an empty file)"), nil
	}
	return pathChange{tool: "write", label: "write", check: refuseDir, recordsPlans: true,
		compute: func(ws *workspace.Workspace, rp workspace.Path) (workspace.Change, error) {
			return ws.ComputeWriteText(rp, *p.Content)
		},
		output: func(rp workspace.Path, c workspace.Change) any {
			return WriteOutput{Path: rp.Rel, Bytes: len(c.After), Created: c.Kind == workspace.ChangeCreate, Hash: workspace.Hash(c.After)}
		},
	}.run(ctx, env, p.Path)
}

// writeTool creates a file or replaces its whole content.
var writeTool = New(Def[WriteParams]{Name: "write", Kind: "edit", Run: runWrite,
	Guard: guard.Decl{Class: guard.ClassMutating, Kind: guard.KindFileEdit, Interaction: guard.Unattended, Plan: guard.BuildOnly, Reach: agentproto.ReachWorkspace,
		Paths: []guard.PathArg{{Name: "path", Role: guard.Target}}},
})
