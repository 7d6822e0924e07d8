package tools

import (
	"context"
	_ "embed"
	"encoding/json"

	"github.com/agentls/agentls/agent/llm"
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

// RmTool deletes a file or folder.
type RmTool struct{}

// Spec implements Tool.
func (RmTool) Spec() Spec {
	return Spec{ToolSpec: llm.ToolSpec{
		Name:        "rm",
		Description: rmDescription,
		Parameters: object([]string{"path"}, map[string]prop{
			"path":      str(""),
			"recursive": boolean(""),
		}),
	}, Guard: guard.Decl{
		Class: guard.ClassMutating, Kind: guard.KindDelete,
		Paths:       []guard.PathArg{{Name: "path", Role: guard.Target}},
		Interaction: guard.Unattended, Plan: guard.BuildOnly,
	}}
}

// Kind implements Tool.
func (RmTool) Kind() string { return "delete" }

// Title implements Tool.
func (RmTool) Title(args json.RawMessage) string { return title("rm", argString(args, "path")) }

// Run implements Tool.
func (RmTool) Run(ctx context.Context, env Env, args json.RawMessage) (Result, error) {
	var p RmParams
	if err := parseArgs(args, &p); err != nil {
		return Failf("%v", err), nil
	}
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
