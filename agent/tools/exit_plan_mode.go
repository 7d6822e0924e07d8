package tools

import (
	"context"
	"strings"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
)

// ExitPlanModeParams are the arguments of exit_plan_mode.
type ExitPlanModeParams struct {
	PlanFilePath    string   `json:"plan_file_path" description:"As plan_write returned it."`
	AllowedCommands []string "json:\"allowed_commands,omitempty\" description:\"Commands the build needs (e.g. `go test ./...`), for the user to allow with the plan.\""
}

// runExitPlanMode runs exit_plan_mode.
func runExitPlanMode(ctx context.Context, env Env, p ExitPlanModeParams) (Result, error) {
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

// exitPlanModeTool presents the plan to the user for approval.
var exitPlanModeTool = New(Def[ExitPlanModeParams]{Name: "exit_plan_mode", Kind: "switch_mode", Run: runExitPlanMode,
	Title: func(p ExitPlanModeParams) string { return codeTitle("ask to approve", p.PlanFilePath) },
	Guard: guard.Decl{Class: guard.ClassReadOnly, Kind: guard.KindReadOnly, Interaction: guard.WaitsOnHuman, Plan: guard.OfferedInPlan, Reach: agentproto.ReachEditor,
		Paths: []guard.PathArg{{Name: "plan_file_path", Role: guard.Source}}},
})
