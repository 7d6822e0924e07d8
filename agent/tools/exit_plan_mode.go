package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"strings"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/guard"
)

//go:embed descriptions/exit_plan_mode.md
var exitPlanModeDescription string

// ExitPlanModeParams are the arguments of exit_plan_mode.
type ExitPlanModeParams struct {
	PlanFilePath    string   `json:"plan_file_path"`
	AllowedCommands []string `json:"allowed_commands,omitempty"`
}

// ExitPlanModeTool presents the plan to the user for approval.
type ExitPlanModeTool struct{}

// Spec implements Tool.
func (ExitPlanModeTool) Spec() Spec {
	return Spec{ToolSpec: llm.ToolSpec{
		Name:        "exit_plan_mode",
		Description: exitPlanModeDescription,
		Parameters: object([]string{"plan_file_path"}, map[string]prop{
			"plan_file_path":   str("As plan_write returned it."),
			"allowed_commands": stringList("Commands the build needs (e.g. `go test ./...`), for the user to allow with the plan."),
		}),
	}, Guard: guard.Decl{
		Class: guard.ClassReadOnly, Kind: guard.KindReadOnly,
		Paths:       []guard.PathArg{{Name: "plan_file_path", Role: guard.Source}},
		Interaction: guard.WaitsOnHuman, Plan: guard.OfferedInPlan,
	}}
}

// Kind implements Tool.
func (ExitPlanModeTool) Kind() string { return "switch_mode" }

// Title implements Tool.
func (ExitPlanModeTool) Title(args json.RawMessage) string {
	return title("ask to approve", argString(args, "plan_file_path"))
}

// Run implements Tool.
func (ExitPlanModeTool) Run(ctx context.Context, env Env, args json.RawMessage) (Result, error) {
	var p ExitPlanModeParams
	if err := parseArgs(args, &p); err != nil {
		return Failf("%v", err), nil
	}
	if strings.TrimSpace(p.PlanFilePath) == "" {
		return Failf("plan_file_path is required: the .plan file to present for approval"), nil
	}
	var allowed []string
	for _, c := range p.AllowedCommands {
		if c = strings.TrimSpace(c); c != "" {
			allowed = append(allowed, c)
		}
	}
	return env.ExitPlanMode(ctx, p.PlanFilePath, allowed)
}
