package agent

// ApprovalReporter is an optional extension of an Editor that wants to
// know when a plan approval starts or stops taking the user's decision
// (the LSP face then asks the editor to refresh the plan's code lenses,
// which offer "Approve & Build" / "Keep Planning" only meanwhile).
// ApprovalChanged must not block: it runs on the turn's goroutine.
type ApprovalReporter interface {
	ApprovalChanged(sessionID, plan string)
}

// reportApproval tells the editor that the approval of plan
// (workspace-relative) in s started or stopped taking decisions.
func (s *Session) reportApproval(plan string) {
	if r, ok := s.m.editor.(ApprovalReporter); ok {
		r.ApprovalChanged(s.meta.ID, plan)
	}
}
