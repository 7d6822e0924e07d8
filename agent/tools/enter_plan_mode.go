package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"strings"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/guard"
)

//go:embed descriptions/enter_plan_mode.md
var enterPlanModeDescription string

// EnterPlanModeParams are the arguments of enter_plan_mode.
type EnterPlanModeParams struct {
	Reason string `json:"reason,omitempty"`
}

// EnterPlanModeTool switches the session to plan mode.
type EnterPlanModeTool struct{}

// Spec implements Tool.
func (EnterPlanModeTool) Spec() Spec {
	return Spec{ToolSpec: llm.ToolSpec{
		Name:        "enter_plan_mode",
		Description: enterPlanModeDescription,
		Parameters: object(nil, map[string]prop{
			"reason": str("Why, in one sentence; the user sees it."),
		}),
	}, Guard: guard.Decl{
		Class: guard.ClassReadOnly, Kind: guard.KindReadOnly,
		Paths:       guard.NoPaths(),
		Interaction: guard.SwitchesMode, Plan: guard.BuildOnly,
	}}
}

// Kind implements Tool.
func (EnterPlanModeTool) Kind() string { return "switch_mode" }

// Title implements Tool.
func (EnterPlanModeTool) Title(json.RawMessage) string { return "enter plan mode" }

// Run implements Tool.
func (EnterPlanModeTool) Run(_ context.Context, env Env, args json.RawMessage) (Result, error) {
	var p EnterPlanModeParams
	if err := parseArgs(args, &p); err != nil {
		return Failf("%v", err), nil
	}
	return OK(env.EnterPlanMode(strings.TrimSpace(p.Reason))), nil
}
