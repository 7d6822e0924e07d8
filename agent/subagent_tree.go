package agent

import (
	"context"
	"sync"

	"github.com/agentls/agentls/agent/agentkinds"
	"github.com/agentls/agentls/agentproto"
)

// subTree is a root session's bookkeeping of its sub-agents: the bounds on
// how many run at once, and the tokens each spent.
type subTree struct {
	once sync.Once
	// explore holds a slot per explore child running (subagents.max_parallel);
	// build one slot: build children run one at a time.
	explore, build chan struct{}

	mu sync.Mutex
	// children are the tokens per sub-agent, in the order they started
	// (by the task call's id as the root's stream shows it).
	children []agentproto.ChildUsage
	// own is the root's own tokens; context, window its last usage_update's.
	own             agentproto.TokenTotal
	context, window int
}

// slots makes the bounds at first use.
func (t *subTree) slots(maxParallel int) {
	t.once.Do(func() {
		t.explore = make(chan struct{}, max(maxParallel, 1))
		t.build = make(chan struct{}, 1)
	})
}

// acquire takes a slot of the base's bound, waiting until one is free or
// ctx ends; it returns the release.
func (t *subTree) acquire(ctx context.Context, base string, maxParallel int) (func(), error) {
	t.slots(maxParallel)
	ch := t.explore
	if base == agentkinds.Build {
		ch = t.build
	}
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// ownUsage records the root's own request and returns its usage_update
// with the sub-agents' tokens and the total once it has any.
func (t *subTree) ownUsage(u agentproto.UsageUpdate) agentproto.UsageUpdate {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.own.InputTokens += u.InputTokens
	t.own.OutputTokens += u.OutputTokens
	t.context, t.window = u.ContextTokens, u.ContextWindow
	return t.decorateLocked(u)
}

// childUsage records a sub-agent's request (under the task call
// callID) and returns the root's usage_update for it: that request's
// tokens, the root's last context size, the children and the total.
func (t *subTree) childUsage(callID string, u agentproto.UsageUpdate) agentproto.UsageUpdate {
	t.mu.Lock()
	defer t.mu.Unlock()
	i := 0
	for i < len(t.children) && t.children[i].ToolCallID != callID {
		i++
	}
	if i == len(t.children) {
		t.children = append(t.children, agentproto.ChildUsage{ToolCallID: callID})
	}
	t.children[i].InputTokens += u.InputTokens
	t.children[i].OutputTokens += u.OutputTokens
	out := agentproto.UsageUpdate{SessionUpdate: "usage_update", InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		ContextTokens: t.context, ContextWindow: t.window}
	return t.decorateLocked(out)
}

// decorateLocked adds the children and the total to u (none before the
// first child).
func (t *subTree) decorateLocked(u agentproto.UsageUpdate) agentproto.UsageUpdate {
	if len(t.children) == 0 {
		return u
	}
	total := t.own
	for _, c := range t.children {
		total.InputTokens += c.InputTokens
		total.OutputTokens += c.OutputTokens
	}
	u.Children = append([]agentproto.ChildUsage(nil), t.children...)
	u.Total = &total
	return u
}
