package tools

import (
	"context"
	"strings"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// PlanEditParams are the arguments of plan_edit: edit's, on a `.plan` file,
// plus an optional new status.
type PlanEditParams struct {
	EditParams
	Status string `json:"status,omitempty" enum:"draft,approved,implemented,archived"`
}

// PlanEditOutput is plan_edit's result.
type PlanEditOutput struct {
	EditOutput
	Metadata *PlanMetadata `json:"metadata"`
}

// runPlanEdit runs plan_edit.
func runPlanEdit(ctx context.Context, env Env, p PlanEditParams) (Result, error) {
	spec, err := p.spec(true)
	if err != nil {
		return Failf("%v", err), nil
	}
	editing := spec.OldString != "" || spec.InsertLine != nil
	var status agentproto.PlanStatus
	if p.Status != "" {
		if status, err = parseStatus(p.Status); err != nil {
			return Failf("%v", err), nil
		}
		if err := statusForMode(env, status); err != nil {
			return Failf("%v", err), nil
		}
	}
	if !editing && status == "" {
		return Failf("nothing to do: give old_string and new_string, insert_line and insert_content, or status"), nil
	}
	if strings.TrimSpace(p.Path) == "" {
		return Failf("path is required: the .plan file to edit"), nil
	}
	rp, before, fail := openPlan(env, p.Path, "")
	if fail != nil {
		return *fail, nil
	}
	ws := env.Workspace()
	c := workspace.Change{After: before}
	if editing {
		if c, err = ws.ComputeEdit(rp, spec); err != nil {
			return Failf("edit plan %s: %v", rp.Rel, err), nil
		}
		if prefix := frontmatterPrefix(c.Before); !strings.HasPrefix(c.After, prefix) {
			return Failf("this edit would change the frontmatter of %s (the lines between the --- markers); "+
				"edit only the body, and use the status argument to change the status", rp.Rel), nil
		}
	} else if spec.LastReadHash != "" && workspace.Hash(before) != spec.LastReadHash {
		return Failf("%s changed since you read it (hash %s, you read %s); read it again with plan_read",
			rp.Rel, workspace.Hash(before), spec.LastReadHash), nil
	}
	if status != "" {
		text, err := workspace.SetPlanStatus(c.After, status)
		if err != nil {
			return Failf("set the status of %s: %v", rp.Rel, err), nil
		}
		if c, err = ws.ComputeWrite(rp, text); err != nil {
			return Failf("edit plan %s: %v", rp.Rel, err), nil
		}
	}
	return apply(ctx, env, "plan_edit", "edit plan "+rp.Rel, c, func() Result {
		env.PlanWritten(env.Workspace().Key(rp), c.After)
		out := PlanEditOutput{EditOutput: editOutput(rp, spec, c)}
		// The metadata is the plan's as it is now: the plan's owner may
		// have set implemented in the same edit (the last tick in build
		// mode) or found the status set already.
		now := c.After
		if text, err := ws.ReadFile(rp); err == nil {
			now = text
		}
		if pl, err := workspace.ParsePlan(now); err == nil {
			out.Metadata = metadataOf(pl.Meta)
		}
		return OK(out)
	})
}

// planEditTool edits a plan, keeping its frontmatter byte for byte unless the
// status changes.
var planEditTool = New(Def[PlanEditParams]{Name: "plan_edit", Kind: "edit", Run: runPlanEdit,
	Title: func(p PlanEditParams) string { return codeTitle("edit plan", p.Path) },
	Guard: guard.Decl{Class: guard.ClassPlanMutating, Kind: guard.KindFileEdit, Interaction: guard.Unattended, Plan: guard.OfferedInPlan, Reach: agentproto.ReachWorkspace,
		Paths: []guard.PathArg{{Name: "path", Role: guard.Target}}},
})
