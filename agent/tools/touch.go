package tools

import (
	"context"
	_ "embed"
	"encoding/json"

	"github.com/agentls/agentls/agent/llm"
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

// TouchTool creates an empty file if it does not exist; an existing file only
// gets a new modification time.
type TouchTool struct{}

// Spec implements Tool.
func (TouchTool) Spec() Spec {
	return Spec{ToolSpec: llm.ToolSpec{
		Name:        "touch",
		Description: touchDescription,
		Parameters: object([]string{"path"}, map[string]prop{
			"path": str(""),
		}),
	}, Guard: guard.Decl{
		Class: guard.ClassMutating, Kind: guard.KindFileEdit,
		Paths:       []guard.PathArg{{Name: "path", Role: guard.Target}},
		Interaction: guard.Unattended, Plan: guard.BuildOnly,
	}}
}

// Kind implements Tool.
func (TouchTool) Kind() string { return "edit" }

// Title implements Tool.
func (TouchTool) Title(args json.RawMessage) string { return title("touch", argString(args, "path")) }

// Run implements Tool.
func (TouchTool) Run(ctx context.Context, env Env, args json.RawMessage) (Result, error) {
	var p TouchParams
	if err := parseArgs(args, &p); err != nil {
		return Failf("%v", err), nil
	}
	rp, fail := resolve(env, "path", p.Path)
	if fail != nil {
		return *fail, nil
	}
	if rp.IsDir {
		return Failf("%s is a directory", rp.Rel), nil
	}
	c, err := env.Workspace().ComputeTouch(rp)
	if err != nil {
		return Failf("touch %s: %v", rp.Rel, err), nil
	}
	if fail, err := apply(ctx, env, "touch", "create "+rp.Rel, c); fail != nil || err != nil {
		return deref(fail), err
	}
	return OK(TouchOutput{Path: rp.Rel, Created: c.Kind == workspace.ChangeCreate}), nil
}
