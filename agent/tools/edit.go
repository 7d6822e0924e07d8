package tools

import (
	"context"
	"errors"
	"strings"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// EditParams are the arguments of edit: a replacement (old_string,
// new_string, replace_all) or an insertion (insert_line, insert_content).
type EditParams struct {
	Path          string  `json:"path"`
	OldString     *string `json:"old_string,omitempty"`
	NewString     *string `json:"new_string,omitempty"`
	ReplaceAll    bool    `json:"replace_all,omitempty"`
	LastReadHash  string  `json:"last_read_hash,omitempty"`
	InsertLine    *int    `json:"insert_line,omitempty" minimum:"0"`
	InsertContent *string `json:"insert_content,omitempty"`
}

// EditOutput is edit's (and plan_edit's) result.
type EditOutput struct {
	Path          string `json:"path"`
	Replacements  int    `json:"replacements"`
	InsertedLines int    `json:"inserted_lines,omitempty"`
	Hash          string `json:"hash"`
}

// runEdit runs edit.
func runEdit(ctx context.Context, env Env, p EditParams) (Result, error) {
	spec, err := p.spec(false)
	if err != nil {
		return Failf("%v", err), nil
	}
	return pathChange{tool: "edit", label: "edit", check: mustBeFile, recordsPlans: true,
		compute: func(ws *workspace.Workspace, rp workspace.Path) (workspace.Change, error) {
			return ws.ComputeEdit(rp, spec)
		},
		output: func(rp workspace.Path, c workspace.Change) any { return editOutput(rp, spec, c) },
	}.run(ctx, env, p.Path)
}

// spec validates the arguments' form and turns them into a workspace.EditSpec.
// With optional, neither form may be given (plan_edit changing only the status).
func (p EditParams) spec(optional bool) (workspace.EditSpec, error) {
	replace := p.OldString != nil || p.NewString != nil || p.ReplaceAll
	insert := p.InsertLine != nil || p.InsertContent != nil
	switch {
	case replace && insert:
		return workspace.EditSpec{}, errors.New("give either old_string/new_string (replace) or insert_line/insert_content (insert), not both")
	case insert:
		if p.InsertLine == nil || p.InsertContent == nil {
			return workspace.EditSpec{}, errors.New("insert mode needs both insert_line and insert_content")
		}
		if *p.InsertLine < 0 {
			return workspace.EditSpec{}, errors.New("insert_line must not be negative")
		}
		return workspace.EditSpec{LastReadHash: p.LastReadHash, InsertLine: p.InsertLine, InsertContent: *p.InsertContent}, nil
	case replace:
		if p.OldString == nil || p.NewString == nil {
			return workspace.EditSpec{}, errors.New("replace mode needs both old_string and new_string")
		}
		if *p.OldString == "" {
			return workspace.EditSpec{}, errors.New("old_string must not be empty; to add text use insert_line/insert_content")
		}
		if *p.OldString == *p.NewString {
			return workspace.EditSpec{}, errors.New("old_string and new_string are the same; nothing would change")
		}
		return workspace.EditSpec{OldString: *p.OldString, NewString: *p.NewString, ReplaceAll: p.ReplaceAll, LastReadHash: p.LastReadHash}, nil
	case optional:
		return workspace.EditSpec{LastReadHash: p.LastReadHash}, nil
	}
	return workspace.EditSpec{}, errors.New("nothing to do: give old_string and new_string, or insert_line and insert_content")
}

// mustBeFile is edit's pathChange check: p is an existing file.
func mustBeFile(ws *workspace.Workspace, p workspace.Path, arg string) *Result {
	if !exists(ws, p) {
		return failed("%s does not exist; use write to create a file", arg)
	}
	return refuseDir(ws, p, arg)
}

// editOutput describes an applied edit.
func editOutput(p workspace.Path, spec workspace.EditSpec, c workspace.Change) EditOutput {
	out := EditOutput{Path: p.Rel, Hash: workspace.Hash(c.After)}
	switch {
	case spec.InsertLine != nil:
		out.InsertedLines = strings.Count(strings.TrimSuffix(spec.InsertContent, "\n"), "\n") + 1
	case spec.OldString == "":
	case spec.ReplaceAll:
		out.Replacements = max(strings.Count(c.Before, spec.OldString), 1)
	default:
		out.Replacements = 1
	}
	return out
}

// editTool changes part of an existing file.
var editTool = New(Def[EditParams]{Name: "edit", Kind: "edit", Run: runEdit,
	Guard: guard.Decl{Class: guard.ClassMutating, Kind: guard.KindFileEdit, Interaction: guard.Unattended, Plan: guard.BuildOnly, Reach: agentproto.ReachWorkspace,
		Paths: []guard.PathArg{{Name: "path", Role: guard.Target}}},
})
