package agent

// ApprovalResolver is an optional extension of an Editor: the face's own
// way for a person to decide a plan approval, named in the "awaiting
// approval" log line (the ACP face: session/request_permission). Without
// it the line names the LSP face's agent/resolvePlan.
type ApprovalResolver interface {
	ApprovalResolvedVia() string
}

// approvalResolvedVia is what the "awaiting approval" line names.
func (m *Manager) approvalResolvedVia() string {
	if r, ok := m.editor.(ApprovalResolver); ok {
		if via := r.ApprovalResolvedVia(); via != "" {
			return via
		}
	}
	return "agent/resolvePlan"
}

// SelfApprover is an optional extension of an Editor: how a person
// approves a plan on this face by their own hand (the ACP face: typing
// /approve), named when the client approved it by itself, faster than a
// person reads a plan (permission.HumanFloor). Without it the text names
// the LSP face's code lens and command.
type SelfApprover interface {
	SelfApproval() string
}

// selfApproval is how the person approves a plan themselves on this face.
func (m *Manager) selfApproval() string {
	if r, ok := m.editor.(SelfApprover); ok {
		if how := r.SelfApproval(); how != "" {
			return how
		}
	}
	return `the plan's "Approve & Build" code lens, or the agentls.approvePlan command`
}
