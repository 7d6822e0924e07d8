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
