package agent

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/workspace"
)

// planOwners gives each plan path one owner: every change the server makes
// to a plan (the model's plan tools, edit and write on a `.plan`, and
// agentls's own status changes) runs under it, one at a time, and is carried
// onto the plan's current text (the editor's buffer first) before it
// leaves. Two writers can therefore never send two diffs computed on the
// same text (issue 24: `status: implementented`).
type planOwners struct {
	mu sync.Mutex
	// turns holds one token channel per plan path (absolute): a write holds
	// the token while its edit is applied.
	turns map[string]chan struct{}
}

// acquire waits, bounded by ctx, for the owner of each path (sorted, so two
// writers of the same plans cannot wait on each other) and returns the
// function that releases them.
func (o *planOwners) acquire(ctx context.Context, paths []string) (func(), error) {
	sort.Strings(paths)
	var held []chan struct{}
	release := func() {
		for i := len(held) - 1; i >= 0; i-- {
			<-held[i]
		}
	}
	for i, p := range paths {
		if i > 0 && paths[i-1] == p {
			continue
		}
		ch := o.turn(p)
		select {
		case ch <- struct{}{}:
			held = append(held, ch)
		case <-ctx.Done():
			release()
			return nil, fmt.Errorf("wait for the other write to %s: %w", p, ctx.Err())
		}
	}
	return release, nil
}

// turn is the token channel of a path.
func (o *planOwners) turn(p string) chan struct{} {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.turns == nil {
		o.turns = make(map[string]chan struct{})
	}
	ch, ok := o.turns[p]
	if !ok {
		ch = make(chan struct{}, 1)
		o.turns[p] = ch
	}
	return ch
}

// planTargets lists the plan documents the changes touch (absolute paths).
func (m *Manager) planTargets(changes []workspace.Change) []string {
	var out []string
	g := m.Guard()
	for _, c := range changes {
		for _, p := range c.Targets() {
			if g.IsPlanTarget(p) {
				out = append(out, p.Abs)
			}
		}
	}
	return out
}

// ownPlans acquires the owners of the plans the changes touch, then carries
// each plan edit onto the plan's current text (see rebasePlan). It returns
// the changes to apply (a change that is there already is dropped) and the
// release function, which the caller calls once the changes are applied.
func (m *Manager) ownPlans(ctx context.Context, changes []workspace.Change, complete func(workspace.Change) workspace.Change) ([]workspace.Change, func(), error) {
	targets := m.planTargets(changes)
	if len(targets) == 0 {
		return changes, func() {}, nil
	}
	release, err := m.planOwners.acquire(ctx, targets)
	if err != nil {
		return nil, nil, err
	}
	out := make([]workspace.Change, 0, len(changes))
	for _, c := range changes {
		if c.Kind != workspace.ChangeEdit || !m.Guard().IsPlanTarget(c.Path) {
			out = append(out, c)
			continue
		}
		c, keep, err := m.rebasePlan(c)
		if err != nil {
			release()
			return nil, nil, err
		}
		if complete != nil {
			c = complete(c)
			keep = keep || c.After != c.Before
		}
		if keep {
			out = append(out, c)
		}
	}
	return out, release, nil
}

// rebasePlan recomputes a plan edit against the plan's current text and
// version (the editor's buffer first): keep is false when the current text
// already is what the change would make (a status agentls set already).
func (m *Manager) rebasePlan(c workspace.Change) (workspace.Change, bool, error) {
	p := c.Path
	current, err := m.ws.ReadFile(p)
	if err != nil {
		return c, false, fmt.Errorf("read plan %s: %w", p.Rel, err)
	}
	nc, keep, err := m.rebaseOnto(c, p, current)
	if text, v, open := m.ws.Overlay().Get(p.Abs); open && text == current {
		nc.Version = &v // the editor's buffer the edit was computed on
	}
	return nc, keep, err
}

// rebaseOnto is rebasePlan's change carried onto current, the text of p.
func (m *Manager) rebaseOnto(c workspace.Change, p workspace.Path, current string) (workspace.Change, bool, error) {
	after, same, err := workspace.Rebase(p.Rel, c.Before, current, c.After)
	if err != nil {
		return c, false, err
	}
	if same {
		return workspace.Change{Kind: workspace.ChangeEdit, Path: p, Before: current, After: current}, false, nil
	}
	if current == c.Before && after == c.After {
		return c, true, nil
	}
	nc, err := m.ws.ComputeWrite(p, after)
	if err != nil {
		return c, false, err
	}
	return nc, true, nil
}

// completeWith returns the change with the plan's status set to
// implemented when, in build mode, the model's edit ticks the attached
// plan's last step without setting a status itself: the status changes in
// the same edit, so that no second edit of agentls's races the model's next
// one.
func (e *env) completeWith(c workspace.Change) workspace.Change {
	s := e.s
	if e.system || s.State().Mode != agentproto.ModeBuild || c.Path.Rel != s.planFile() {
		return c
	}
	before, errB := workspace.ParsePlan(c.Before)
	after, errA := workspace.ParsePlan(c.After)
	if errB != nil || errA != nil || before.Meta == nil || after.Meta == nil || before.Meta.Status != after.Meta.Status {
		return c
	}
	if len(after.Steps) == 0 || after.StepsDone() < len(after.Steps) ||
		after.Meta.Status == agentproto.PlanImplemented || after.Meta.Status == agentproto.PlanArchived {
		return c
	}
	text, err := workspace.SetPlanStatus(c.After, agentproto.PlanImplemented)
	if err != nil {
		return c
	}
	// Under the owner, c.Before is the plan's current text: the diff is
	// taken from it.
	nc, err := e.s.m.ws.ComputeWrite(c.Path, text)
	if err != nil {
		return c
	}
	nc.Version = c.Version
	return nc
}
