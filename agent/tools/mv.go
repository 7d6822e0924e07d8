package tools

import (
	"context"
	_ "embed"
	"encoding/json"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/guard"
)

//go:embed descriptions/mv.md
var mvDescription string

// MvParams are the arguments of mv.
type MvParams struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// MvOutput is mv's result.
type MvOutput struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// MvTool moves or renames a file or folder.
type MvTool struct{}

// Spec implements Tool.
func (MvTool) Spec() Spec {
	return Spec{ToolSpec: llm.ToolSpec{
		Name:        "mv",
		Description: mvDescription,
		Parameters: object([]string{"from", "to"}, map[string]prop{
			"from": str(""),
			"to":   str("Must not exist yet."),
		}),
	}, Guard: guard.Decl{
		Class: guard.ClassMutating, Kind: guard.KindMove,
		Paths:       []guard.PathArg{{Name: "from", Role: guard.Source}, {Name: "to", Role: guard.Target}},
		Interaction: guard.Unattended, Plan: guard.BuildOnly,
	}}
}

// Kind implements Tool.
func (MvTool) Kind() string { return "move" }

// Title implements Tool.
func (MvTool) Title(args json.RawMessage) string {
	return title("mv", argString(args, "from")+" → "+argString(args, "to"))
}

// Run implements Tool.
func (MvTool) Run(ctx context.Context, env Env, args json.RawMessage) (Result, error) {
	var p MvParams
	if err := parseArgs(args, &p); err != nil {
		return Failf("%v", err), nil
	}
	from, fail := resolve(env, "from", p.From)
	if fail != nil {
		return *fail, nil
	}
	to, fail := resolve(env, "to", p.To)
	if fail != nil {
		return *fail, nil
	}
	if !from.Exists {
		return Failf("from: %s does not exist", p.From), nil
	}
	c, err := env.Workspace().ComputeMove(from, to)
	if err != nil {
		return Failf("mv %s %s: %v", from.Rel, to.Rel, err), nil
	}
	if fail, err := apply(ctx, env, "mv", "move "+from.Rel+" to "+to.Rel, c); fail != nil || err != nil {
		return deref(fail), err
	}
	return OK(MvOutput{From: from.Rel, To: to.Rel}), nil
}
