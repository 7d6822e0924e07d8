package tools

import (
	"context"
	"errors"
	"math/rand/v2"
	"path"
	"strings"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// PlanWriteParams are the arguments of plan_write: either title and content
// (markdown), or the structured form goal, steps, estimated_total_time,
// risks, prerequisites.
type PlanWriteParams struct {
	Title              string          `json:"title,omitempty" description:"Required with content; default: the goal."`
	Content            *string         `json:"content,omitempty"`
	Path               string          `json:"path,omitempty"`
	Status             string          `json:"status,omitempty" enum:"draft,approved,implemented,archived"`
	Goal               string          `json:"goal,omitempty"`
	Steps              []PlanStepInput `json:"steps,omitempty"`
	EstimatedTotalTime string          `json:"estimated_total_time,omitempty"`
	Risks              []string        `json:"risks,omitempty"`
	Prerequisites      []string        `json:"prerequisites,omitempty"`
}

// PlanWriteOutput is plan_write's result.
type PlanWriteOutput struct {
	Path     string       `json:"path"`
	Created  bool         `json:"created"`
	Hash     string       `json:"hash"`
	Steps    int          `json:"steps"`
	Metadata PlanMetadata `json:"metadata"`
}

// planWriteTool writes a `.plan` document with its frontmatter, naming it
// when no path is given.
var planWriteTool = planWriter{}.tool()

// planWriter is plan_write with its clock and the random source that names
// new plans (nil: the real ones; tests fix them).
type planWriter struct {
	now     func() time.Time
	newRand func() *rand.Rand
}

// tool is plan_write with w's clock and random source.
func (w planWriter) tool() Tool {
	return New(Def[PlanWriteParams]{Name: "plan_write", Kind: "edit", Run: w.run,
		Title: planWriteTitle,
		Guard: guard.Decl{Class: guard.ClassPlanMutating, Kind: guard.KindFileEdit, Interaction: guard.Unattended, Plan: guard.OfferedInPlan, Reach: agentproto.ReachWorkspace,
			Paths: []guard.PathArg{{Name: "path", Role: guard.Target, Optional: true}}},
	})
}

// planWriteTitle is plan_write's title of a call.
func planWriteTitle(p PlanWriteParams) string {
	if p.Path != "" {
		return codeTitle("write plan", p.Path)
	}
	if p.Title != "" {
		return title("write plan:", p.Title)
	}
	return "write a new plan"
}

// run runs plan_write.
func (w planWriter) run(ctx context.Context, env Env, p PlanWriteParams) (Result, error) {
	titleText, body, err := p.body()
	if err != nil {
		return Failf("%v", err), nil
	}
	status := agentproto.PlanDraft
	if p.Status != "" {
		if status, err = parseStatus(p.Status); err != nil {
			return Failf("%v", err), nil
		}
	}
	if err := statusForMode(env, status); err != nil {
		return Failf("%v", err), nil
	}
	rp, fail := w.target(env, p.Path)
	if fail != nil {
		return *fail, nil
	}
	ws := env.Workspace()
	meta := workspace.PlanMeta{Title: titleText, Status: status, CreatedAt: w.clock().UTC().Truncate(time.Second)}
	if exists(ws, rp) {
		// Rewriting a plan keeps its creation time.
		if old, err := ws.ReadFile(rp); err == nil {
			if pl, err := workspace.ParsePlan(old); err == nil && pl.Meta != nil && !pl.Meta.CreatedAt.IsZero() {
				meta.CreatedAt = pl.Meta.CreatedAt
			}
		}
	}
	text := workspace.RenderPlan(meta, body)
	c, err := ws.ComputeWrite(rp, text)
	if err != nil {
		return Failf("write plan %s: %v", rp.Rel, err), nil
	}
	return apply(ctx, env, "plan_write", "write plan "+rp.Rel, c, func() Result {
		env.PlanWritten(env.Workspace().Key(rp), text)
		steps := 0
		if pl, err := workspace.ParsePlan(text); err == nil {
			steps = len(pl.Steps)
		}
		return OK(PlanWriteOutput{
			Path: rp.Rel, Created: c.Kind == workspace.ChangeCreate, Hash: workspace.Hash(text),
			Steps: steps, Metadata: *metadataOf(&meta),
		})
	})
}

// body validates the form of the arguments and returns the title and the
// markdown body (without frontmatter) of the plan.
func (p PlanWriteParams) body() (string, string, error) {
	structured := p.Goal != "" || p.Steps != nil || p.EstimatedTotalTime != "" || p.Risks != nil || p.Prerequisites != nil
	switch {
	case structured && p.Content != nil:
		return "", "", errors.New("give either content (markdown) or goal and steps (structured), not both")
	case structured:
		sp := structuredPlan{Goal: p.Goal, Steps: p.Steps, EstimatedTotalTime: p.EstimatedTotalTime, Risks: p.Risks, Prerequisites: p.Prerequisites}
		if err := sp.validate(); err != nil {
			return "", "", err
		}
		t := oneLine(p.Title)
		if t == "" {
			t = sp.title()
		}
		return t, sp.render(), nil
	case p.Content == nil:
		return "", "", errors.New("give title and content (the plan in markdown), or goal and steps")
	}
	t := oneLine(p.Title)
	if t == "" {
		return "", "", errors.New("title is required with content")
	}
	body := *p.Content
	if strings.TrimSpace(body) == "" {
		return "", "", errors.New("content is empty; write the plan's goal and steps")
	}
	// A model may include frontmatter of its own: the tool writes it.
	if pl, err := workspace.ParsePlan(body); err == nil && pl.Meta != nil {
		body = pl.Body
	}
	return t, body, nil
}

// target resolves the plan's path: the given one (a .plan file), or a new
// three-word name in the plans folder that no plan has yet (on disk or in the
// editor).
func (w planWriter) target(env Env, given string) (workspace.Path, *Result) {
	ws := env.Workspace()
	if strings.TrimSpace(given) != "" {
		rp, fail := resolve(env, "path", given)
		if fail != nil {
			return rp, fail
		}
		if rp.IsDir || path.Ext(rp.Rel) != ".plan" {
			return rp, failed("path %s must name a .plan file", given)
		}
		return rp, nil
	}
	dir := plansDir(env)
	if _, fail := resolve(env, "plans folder", dir); fail != nil {
		return workspace.Path{}, fail
	}
	// A name that does not resolve is not taken: it is chosen and its
	// resolution error reported, rather than searched past forever.
	taken := func(name string) bool {
		p, err := ws.Resolve(path.Join(dir, name+".plan"))
		return err == nil && exists(ws, p)
	}
	name := workspace.NewPlanName(w.rng(), taken)
	return resolve(env, "path", path.Join(dir, name+".plan"))
}

func (w planWriter) clock() time.Time {
	if w.now != nil {
		return w.now()
	}
	return time.Now()
}

func (w planWriter) rng() *rand.Rand {
	if w.newRand != nil {
		return w.newRand()
	}
	return rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
}
