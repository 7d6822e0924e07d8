package tools

import (
	"context"
	"strings"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
)

// MvParams are the arguments of mv.
type MvParams struct {
	From string `json:"from"`
	To   string `json:"to" description:"Must not exist yet."`
}

// MvOutput is mv's result.
type MvOutput struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// runMv runs mv.
func runMv(ctx context.Context, env Env, p MvParams) (Result, error) {
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
	return apply(ctx, env, "mv", "move "+from.Rel+" to "+to.Rel, c, func() Result {
		return OK(MvOutput{From: from.Rel, To: to.Rel})
	})
}

// mvTool moves or renames a file or folder.
var mvTool = New(Def[MvParams]{Name: "mv", Kind: "move", Run: runMv,
	Title: func(p MvParams) string {
		return strings.Join(strings.Fields("mv "+titleCode(p.From)+" → "+titleCode(p.To)), " ")
	},
	Guard: guard.Decl{Class: guard.ClassMutating, Kind: guard.KindMove, Interaction: guard.Unattended, Plan: guard.BuildOnly, Reach: agentproto.ReachWorkspace,
		Paths: []guard.PathArg{{Name: "from", Role: guard.Source}, {Name: "to", Role: guard.Target}}},
})
