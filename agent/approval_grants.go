package agent

import (
	"context"
	"slices"

	"github.com/agentls/agentls/workspace"
)

// asking records the dialog's context and what approving grants, so that
// another UI (the plan's "Approve & Build" lens) can put the same question
// again instead of approving unseen grants.
func (a *pendingApproval) asking(ctx context.Context, p workspace.Path, grants []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.askCtx, a.path, a.grants = ctx, p, slices.Clone(grants)
}

// ApprovalGrants are the commands approving session id's pending plan
// grants (its allowed_commands); ok is false when no plan awaits approval.
func (m *Manager) ApprovalGrants(id string) (grants []string, ok bool) {
	s, err := m.session(id)
	if err != nil {
		return nil, false
	}
	ap := s.currentApproval()
	if ap == nil {
		return nil, false
	}
	ap.mu.Lock()
	defer ap.mu.Unlock()
	return slices.Clone(ap.grants), true
}

// AskApprovalAgain puts the pending approval question of session id to the
// user again (the question that lists what approving grants), in the
// background; its answer decides like the first dialog's. It reports
// false when no approval is pending or its dialog has not started.
func (m *Manager) AskApprovalAgain(id string) bool {
	s, err := m.session(id)
	if err != nil {
		return false
	}
	ap := s.currentApproval()
	if ap == nil {
		return false
	}
	ap.mu.Lock()
	ctx, p, grants := ap.askCtx, ap.path, slices.Clone(ap.grants)
	ap.mu.Unlock()
	if ctx == nil || ctx.Err() != nil || !m.startBackground() {
		return false
	}
	go func() { // ends with the approval (ctx)
		defer m.wg.Done()
		if d, ok := s.askApproval(ctx, p.Rel, grants); ok {
			ap.offer(d)
		}
	}()
	return true
}
