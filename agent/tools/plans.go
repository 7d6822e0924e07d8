package tools

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/workspace"
)

// PlanMetadata is a plan's frontmatter as the plan tools report it.
type PlanMetadata struct {
	Title     string `json:"title"`
	Status    string `json:"status"`
	CreatedAt string `json:"created_at"`
}

// metadataOf reports a plan's frontmatter; nil for a legacy plan.
func metadataOf(m *workspace.PlanMeta) *PlanMetadata {
	if m == nil {
		return nil
	}
	out := &PlanMetadata{Title: m.Title, Status: string(m.Status)}
	if !m.CreatedAt.IsZero() {
		out.CreatedAt = m.CreatedAt.UTC().Format(time.RFC3339)
	}
	return out
}

// planStatuses lists the valid plan statuses, for error messages.
const planStatuses = "draft, approved, implemented, archived"

// parseStatus validates a status argument.
func parseStatus(s string) (agentproto.PlanStatus, error) {
	st := agentproto.PlanStatus(strings.TrimSpace(s))
	if !st.Valid() {
		return "", fmt.Errorf("status %q is not valid; use one of %s", s, planStatuses)
	}
	return st, nil
}

// statusForMode refuses, in plan mode, the statuses the model does not give
// a plan: `approved` comes from the user (exit_plan_mode's approval, or a
// switch to build) and `implemented` from build mode, once every step is
// ticked. In plan mode the model may keep a plan draft or archive one.
func statusForMode(env Env, st agentproto.PlanStatus) error {
	if env.State().Mode != agentproto.ModePlan {
		return nil
	}
	switch st {
	case agentproto.PlanApproved:
		return errors.New("status approved cannot be set in plan mode: the user approves the plan when you present it with exit_plan_mode")
	case agentproto.PlanImplemented:
		return errors.New("status implemented cannot be set in plan mode: a plan is implemented in build mode, once every step is ticked")
	}
	return nil
}

// listPlans lists the plans folder with workspace.ListPlans, the listing
// agent/listPlans shows the editor too.
func listPlans(env Env) ([]workspace.ListedPlan, error) {
	dir, err := env.Config().PlansDir(env.Workspace().Folders()...)
	if err != nil {
		return nil, err
	}
	return env.Workspace().ListPlans(dir)
}

// findPlan looks a plan up by name: a three-word name or a file name
// (".plan" optional), first directly in the plans folder, then anywhere
// below it, among the plans the listing finds (a symlinked `.plan` name is
// never one).
func findPlan(env Env, name string) (workspace.Path, error) {
	base := strings.TrimSuffix(strings.TrimSpace(name), ".plan")
	if base == "" || strings.ContainsRune(base, 0) {
		return workspace.Path{}, fmt.Errorf("name %q is not a plan name", name)
	}
	dir := plansDir(env)
	named := path.Join(dir, base+".plan")
	direct, err := env.Workspace().Resolve(named)
	// A symlinked name is no plan (the listing's rule): Resolve followed it
	// when the resolved path is not the name.
	if err == nil && direct.Rel == named && !direct.IsDir && exists(env.Workspace(), direct) {
		return direct, nil
	}
	if strings.Contains(base, "/") {
		return workspace.Path{}, fmt.Errorf("no plan %s.plan in %s/; plan_list shows the plans", base, dir)
	}
	plans, err := listPlans(env)
	if err != nil {
		return workspace.Path{}, err
	}
	var found []string
	var match workspace.Path
	for _, pf := range plans {
		if pf.Path.Exists && pf.Name == base { // a symlink is never a plan
			found = append(found, pf.Path.Rel)
			match = pf.Path
		}
	}
	switch len(found) {
	case 0:
		return workspace.Path{}, fmt.Errorf("no plan named %q in %s/; plan_list shows the plans", base, dir)
	case 1:
		return match, nil
	}
	sort.Strings(found)
	return workspace.Path{}, fmt.Errorf("%d plans are named %q: %s; pass path instead", len(found), base, strings.Join(found, ", "))
}

// frontmatterPrefix is the part of a plan's text that holds its
// frontmatter (delimiters included), which plan_edit keeps byte for byte; ""
// for a legacy plan or one whose frontmatter cannot be parsed (then edits
// may repair it).
func frontmatterPrefix(text string) string {
	pl, err := workspace.ParsePlan(text)
	if err != nil || pl.Meta == nil || !strings.HasSuffix(text, pl.Body) {
		return ""
	}
	return text[:len(text)-len(pl.Body)]
}

// PlanStepOut is one checkbox step of a plan; Line is 1-based, counted from
// the top of the file like read's line numbers.
type PlanStepOut struct {
	Line int    `json:"line"`
	Text string `json:"text"`
	Done bool   `json:"done"`
}

// stepsOf reports a plan's steps and how many are done.
func stepsOf(pl workspace.Plan) ([]PlanStepOut, int) {
	out := make([]PlanStepOut, 0, len(pl.Steps))
	for _, s := range pl.Steps {
		out = append(out, PlanStepOut{Line: s.Line + 1, Text: s.Text, Done: s.Done})
	}
	return out, pl.StepsDone()
}

// errNoPlan is the failure of a plan tool called without a plan to act on.
var errNoPlan = errors.New("no plan is attached to this session; pass path or name (plan_list shows the plans)")
