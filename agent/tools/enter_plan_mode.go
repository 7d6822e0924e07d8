package tools

import (
	"context"
	"strings"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
)

// EnterPlanModeParams are the arguments of enter_plan_mode.
type EnterPlanModeParams struct {
	Reason string `json:"reason,omitempty" description:"Why, in one sentence; the user sees it."`
}

// runEnterPlanMode runs enter_plan_mode.
func runEnterPlanMode(_ context.Context, env Env, p EnterPlanModeParams) (Result, error) {
	return OK(env.EnterPlanMode(strings.TrimSpace(p.Reason))), nil
}

// enterPlanModeTool switches the session to plan mode.
var enterPlanModeTool = New(Def[EnterPlanModeParams]{Name: "enter_plan_mode", Kind: "switch_mode", Run: runEnterPlanMode,
	Title: func(EnterPlanModeParams) string { return "enter plan mode" },
	Guard: guard.Decl{Class: guard.ClassReadOnly, Kind: guard.KindReadOnly, Interaction: guard.SwitchesMode, Plan: guard.BuildOnly, Reach: agentproto.ReachEditor,
		Paths: guard.NoPaths()},
})
