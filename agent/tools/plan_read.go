package tools

import (
	"cmp"
	"context"
	"strings"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// PlanReadParams are the arguments of plan_read.
type PlanReadParams struct {
	Path   string `json:"path,omitempty"`
	Name   string `json:"name,omitempty"`
	Offset int    `json:"offset,omitempty" minimum:"0"`
	Limit  int    `json:"limit,omitempty" minimum:"0"`
}

// PlanReadOutput is plan_read's result: read's window of the file (line
// numbers count from the top of the file, frontmatter included), the parsed
// frontmatter (null for a legacy plan) and the checkbox steps.
type PlanReadOutput struct {
	ReadOutput
	Metadata         *PlanMetadata `json:"metadata"`
	FrontmatterError string        `json:"frontmatter_error,omitempty"`
	Steps            []PlanStepOut `json:"steps"`
	StepsDone        int           `json:"steps_done"`
	StepsTotal       int           `json:"steps_total"`
	Attached         bool          `json:"attached"`
}

// planReadTitle is plan_read's title of a call.
func planReadTitle(p PlanReadParams) string {
	if which := cmp.Or(p.Path, p.Name); which != "" {
		return codeTitle("read plan", which)
	}
	return "read the plan"
}

// runPlanRead runs plan_read.
func runPlanRead(_ context.Context, env Env, p PlanReadParams) (Result, error) {
	if p.Offset < 0 || p.Limit < 0 {
		return Failf("offset and limit must not be negative"), nil
	}
	rp, text, fail := openPlan(env, p.Path, p.Name)
	if fail != nil {
		return *fail, nil
	}
	win, fail := readWindow(env.Workspace(), rp, p.Offset, p.Limit)
	if fail != nil {
		return *fail, nil
	}
	out := PlanReadOutput{ReadOutput: win, Steps: []PlanStepOut{}, Attached: rp.Rel == env.PlanFile()}
	// A broken frontmatter still has a body with steps (Meta is nil then).
	pl, err := workspace.ParsePlan(text)
	if err != nil {
		out.FrontmatterError = err.Error()
	}
	out.Metadata = metadataOf(pl.Meta)
	out.Steps, out.StepsDone = stepsOf(pl)
	out.StepsTotal = len(out.Steps)
	return OK(out), nil
}

// openPlan locates the plan a plan tool acts on (see locatePlan) and reads
// its text.
func openPlan(env Env, p, name string) (workspace.Path, string, *Result) {
	rp, fail := locatePlan(env, p, name)
	if fail != nil {
		return rp, "", fail
	}
	text, err := env.Workspace().ReadFile(rp)
	if err != nil {
		return rp, "", failed("read plan %s: %v", rp.Rel, err)
	}
	return rp, text, nil
}

// locatePlan finds the plan a plan tool acts on: by path, by name, or the
// session's attached plan.
func locatePlan(env Env, p, name string) (workspace.Path, *Result) {
	p, name = strings.TrimSpace(p), strings.TrimSpace(name)
	switch {
	case p != "" && name != "":
		return workspace.Path{}, failed("give path or name, not both")
	case name != "":
		rp, err := findPlan(env, name)
		if err != nil {
			return workspace.Path{}, failed("%v", err)
		}
		return rp, nil
	case p == "":
		if p = env.PlanFile(); p == "" {
			return workspace.Path{}, failed("%v", errNoPlan)
		}
	}
	rp, fail := resolve(env, "path", p)
	if fail != nil {
		return rp, fail
	}
	if !isPlanFile(rp) {
		return rp, failed("%s is not a .plan file; use read for other files", rp.Rel)
	}
	if !exists(env.Workspace(), rp) {
		return rp, failed("plan %s does not exist; plan_list shows the plans", rp.Rel)
	}
	return rp, nil
}

// planReadTool reads a plan with its parsed frontmatter and steps.
var planReadTool = New(Def[PlanReadParams]{Name: "plan_read", Kind: "read", Run: runPlanRead,
	Title: planReadTitle,
	Guard: guard.Decl{Class: guard.ClassReadOnly, Kind: guard.KindReadOnly, Interaction: guard.Unattended, Plan: guard.OfferedInPlan, Reach: agentproto.ReachWorkspace,
		Paths: []guard.PathArg{{Name: "path", Role: guard.Source, Optional: true}}},
})
