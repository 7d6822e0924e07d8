package tools

import (
	"context"
	_ "embed"
	"encoding/json"

	"github.com/agentls/agentls/agent/llm"
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

// MkdirTool creates a folder and any missing parents.
type MkdirTool struct{}

// Spec implements Tool.
func (MkdirTool) Spec() Spec {
	return Spec{ToolSpec: llm.ToolSpec{
		Name:        "mkdir",
		Description: mkdirDescription,
		Parameters: object([]string{"path"}, map[string]prop{
			"path": str(""),
		}),
	}, Guard: guard.Decl{
		Class: guard.ClassMutating, Kind: guard.KindMkdir,
		Paths:       []guard.PathArg{{Name: "path", Role: guard.Target}},
		Interaction: guard.Unattended, Plan: guard.BuildOnly,
	}}
}

// Kind implements Tool.
func (MkdirTool) Kind() string { return "edit" }

// Title implements Tool.
func (MkdirTool) Title(args json.RawMessage) string { return title("mkdir", argString(args, "path")) }

// Run implements Tool.
func (MkdirTool) Run(ctx context.Context, env Env, args json.RawMessage) (Result, error) {
	var p MkdirParams
	if err := parseArgs(args, &p); err != nil {
		return Failf("%v", err), nil
	}
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
