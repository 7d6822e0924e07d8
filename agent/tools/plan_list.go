package tools

import (
	"context"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// Bounds of plan_list's limit.
const (
	defaultPlanListLimit = 50
	maxPlanListLimit     = 500
)

// PlanListParams are the arguments of plan_list.
type PlanListParams struct {
	Status string `json:"status,omitempty" enum:"draft,approved,implemented,archived"`
	Limit  int    `json:"limit,omitempty" minimum:"0" description:"Default 50."`
}

// PlanInfo is one plan of plan_list's result: its path, its name (the file
// name without `.plan`), its frontmatter (nil for a legacy plan) and its
// progress; Error says why a plan is not listed in full (a frontmatter that
// cannot be parsed, a file that cannot be read, a symlink).
type PlanInfo struct {
	Path       string        `json:"path"`
	Name       string        `json:"name"`
	Metadata   *PlanMetadata `json:"metadata"`
	StepsDone  int           `json:"steps_done"`
	StepsTotal int           `json:"steps_total"`
	Error      string        `json:"error,omitempty"`
}

// PlanListOutput is plan_list's result; Total counts the plans that match,
// before the limit.
type PlanListOutput struct {
	Plans []PlanInfo `json:"plans"`
	Total int        `json:"total"`
}

// planListTitle is plan_list's title of a call.
func planListTitle(p PlanListParams) string {
	if p.Status != "" {
		return title("list plans:", p.Status)
	}
	return "list plans"
}

// runPlanList runs plan_list.
func runPlanList(_ context.Context, env Env, p PlanListParams) (Result, error) {
	var status agentproto.PlanStatus
	if p.Status != "" {
		var err error
		if status, err = parseStatus(p.Status); err != nil {
			return Failf("%v", err), nil
		}
	}
	switch {
	case p.Limit < 0:
		return Failf("limit must not be negative"), nil
	case p.Limit == 0:
		p.Limit = defaultPlanListLimit
	}
	p.Limit = min(p.Limit, maxPlanListLimit)
	listed, err := listPlans(env)
	if err != nil {
		return Failf("%v", err), nil
	}
	plans, total := workspace.SelectPlans(listed, status, p.Limit)
	out := PlanListOutput{Plans: make([]PlanInfo, 0, len(plans)), Total: total}
	for _, l := range plans {
		info := PlanInfo{Path: l.Path.Rel, Name: l.Name, Metadata: metadataOf(l.Plan.Meta)}
		info.StepsDone, info.StepsTotal = l.Plan.StepsDone(), len(l.Plan.Steps)
		if l.Err != nil {
			info.Error = l.Err.Error()
		}
		out.Plans = append(out.Plans, info)
	}
	return OK(out), nil
}

// planListTool lists the plans in the plans folder, newest first.
var planListTool = New(Def[PlanListParams]{Name: "plan_list", Kind: "search", Run: runPlanList,
	Title: planListTitle,
	Guard: guard.Decl{Class: guard.ClassReadOnly, Kind: guard.KindReadOnly, Interaction: guard.Unattended, Plan: guard.OfferedInPlan, Reach: agentproto.ReachWorkspace,
		Paths: guard.NoPaths()},
})
