package acp

// SelfApproval names how a person approves a plan on the ACP face by
// their own hand, when the client approved it by itself faster than a
// person reads it (agent.SelfApprover): a prompt while the plan awaits
// approval is its answer, so /approve approves it, and switching to build
// mode does too.
func (e *editor) SelfApproval() string {
	return "type /approve (or switch to build mode)"
}
