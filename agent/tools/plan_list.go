package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

//go:embed descriptions/plan_list.md
var planListDescription string

// Bounds of plan_list's limit.
const (
	defaultPlanListLimit = 50
	maxPlanListLimit     = 500
)

// PlanListParams are the arguments of plan_list.
type PlanListParams struct {
	Status string `json:"status,omitempty"`
	Limit  int    `json:"limit,omitempty"`
}

// PlanInfo is one plan of plan_list's result: its path, its name (the file
// name without `.plan`), its frontmatter (nil for a legacy plan) and its
// progress.
type PlanInfo struct {
	Path       string        `json:"path"`
	Name       string        `json:"name"`
	Metadata   *PlanMetadata `json:"metadata"`
	StepsDone  int           `json:"steps_done"`
	StepsTotal int           `json:"steps_total"`
}

// PlanListOutput is plan_list's result; Total counts the plans that match,
// before the limit.
type PlanListOutput struct {
	Plans []PlanInfo `json:"plans"`
	Total int        `json:"total"`
}

// PlanListTool lists the plans in the plans folder, newest first.
type PlanListTool struct{}

// Spec implements Tool.
func (PlanListTool) Spec() Spec {
	return Spec{ToolSpec: llm.ToolSpec{
		Name:        "plan_list",
		Description: planListDescription,
		Parameters: object(nil, map[string]prop{
			"status": enum("", "draft", "approved", "implemented", "archived"),
			"limit":  integer("Default 50.", 0),
		}),
	}, Guard: guard.Decl{
		Class: guard.ClassReadOnly, Kind: guard.KindReadOnly,
		Paths:       guard.NoPaths(),
		Interaction: guard.Unattended, Plan: guard.OfferedInPlan,
	}}
}

// Kind implements Tool.
func (PlanListTool) Kind() string { return "search" }

// Title implements Tool.
func (PlanListTool) Title(args json.RawMessage) string {
	if s := argString(args, "status"); s != "" {
		return title("list plans:", s)
	}
	return "list plans"
}

// Run implements Tool.
func (PlanListTool) Run(_ context.Context, env Env, args json.RawMessage) (Result, error) {
	var p PlanListParams
	if err := parseArgs(args, &p); err != nil {
		return Failf("%v", err), nil
	}
	var status workspace.PlanStatus
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
	files, err := walkPlans(env)
	if err != nil {
		return Failf("%v", err), nil
	}
	type listed struct {
		info    PlanInfo
		created time.Time // created_at, or the modification time of a legacy plan
		modTime time.Time
	}
	var plans []listed
	ws := env.Workspace()
	for _, f := range files {
		text, err := ws.ReadFile(f.path)
		if err != nil {
			continue
		}
		name := strings.TrimSuffix(path.Base(f.path.Rel), ".plan")
		l := listed{info: PlanInfo{Path: f.path.Rel, Name: name}, created: f.modTime, modTime: f.modTime}
		pl, _ := workspace.ParsePlan(text) // a broken frontmatter lists like a legacy plan
		l.info.Metadata = metadataOf(pl.Meta)
		if pl.Meta != nil && !pl.Meta.CreatedAt.IsZero() {
			l.created = pl.Meta.CreatedAt
		}
		steps, done := stepsOf(pl)
		l.info.StepsDone, l.info.StepsTotal = done, len(steps)
		if status != "" && (l.info.Metadata == nil || l.info.Metadata.Status != string(status)) {
			continue
		}
		plans = append(plans, l)
	}
	sort.SliceStable(plans, func(i, j int) bool {
		a, b := plans[i], plans[j]
		if !a.created.Equal(b.created) {
			return a.created.After(b.created)
		}
		if !a.modTime.Equal(b.modTime) {
			return a.modTime.After(b.modTime)
		}
		return a.info.Path < b.info.Path
	})
	out := PlanListOutput{Plans: make([]PlanInfo, 0, min(len(plans), p.Limit)), Total: len(plans)}
	for _, l := range plans[:min(len(plans), p.Limit)] {
		out.Plans = append(out.Plans, l.info)
	}
	return OK(out), nil
}
