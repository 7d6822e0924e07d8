package agentproto

// Decision is the user's decision on a plan awaiting approval.
type Decision string

// The decisions.
const (
	DecisionApprove Decision = "approve"
	DecisionReject  Decision = "reject"
)

// ResolvePlanParams are agent/resolvePlan's params.
type ResolvePlanParams struct {
	SessionID string   `json:"sessionId"`
	Decision  Decision `json:"decision"`
	// Reason is required for reject.
	Reason string `json:"reason,omitempty"`
	// PlanFile, when given, is the plan the decision is about (the one the
	// client showed): the decision is refused unless the session awaits
	// that plan's approval now.
	PlanFile string `json:"planFile,omitempty"`
}

// PlanDecisionParams are agentls.approvePlan's and agentls.rejectPlan's
// params: agent/resolvePlan's with the decision filled in.
type PlanDecisionParams struct {
	SessionID string `json:"sessionId,omitempty"`
	Reason    string `json:"reason,omitempty"`
	// PlanFile is the plan the decision is about (a code lens's): the
	// decision is refused unless the session awaits that plan's approval
	// (a lens still drawn above a plan never decides another).
	PlanFile string `json:"planFile,omitempty"`
}

// ApprovePlanResult is agentls.approvePlan's result: the Session once
// approved, or, when approving also grants commands, {asked: true,
// grants}: the approval question was asked again.
type ApprovePlanResult struct {
	*Session
	Asked  bool     `json:"asked,omitempty"`
	Grants []string `json:"grants,omitempty"`
}

// PlanStatus is a plan's frontmatter status.
type PlanStatus string

// The plan statuses.
const (
	PlanDraft       PlanStatus = "draft"
	PlanApproved    PlanStatus = "approved"
	PlanImplemented PlanStatus = "implemented"
	PlanArchived    PlanStatus = "archived"
)

// Valid reports whether s is one of the plan statuses.
func (s PlanStatus) Valid() bool {
	switch s {
	case PlanDraft, PlanApproved, PlanImplemented, PlanArchived:
		return true
	}
	return false
}

// ListPlansParams are agent/listPlans's params.
type ListPlansParams struct {
	// Status keeps the plans with that status.
	Status PlanStatus `json:"status,omitempty"`
	// Limit is the most plans listed (default 50).
	Limit int `json:"limit,omitempty"`
}

// ListPlansResult is agent/listPlans's result.
type ListPlansResult struct {
	Plans []PlanInfo `json:"plans"`
	// Total counts the plans before limit.
	Total int `json:"total"`
}

// PlanInfo is one listed plan.
type PlanInfo struct {
	Path       string `json:"path"`
	Title      string `json:"title"`
	Status     string `json:"status"`
	CreatedAt  string `json:"createdAt"`
	StepsDone  int    `json:"stepsDone"`
	StepsTotal int    `json:"stepsTotal"`
	// Error says why the plan cannot be read or parsed.
	Error string `json:"error,omitempty"`
}

// PlanPathParams name a plan file: workspace-relative, absolute, or a
// file:// URI.
type PlanPathParams struct {
	Path string `json:"path"`
}

// ShownPlan is agentls.showPlan's result.
type ShownPlan struct {
	Path   string     `json:"path"`
	Title  string     `json:"title"`
	Status PlanStatus `json:"status"`
	Steps  []PlanStep `json:"steps"`
}

// PlanStep is one step of a shown plan.
type PlanStep struct {
	Text string `json:"text"`
	Done bool   `json:"done"`
}

// ArchivedPlan is agentls.archivePlan's result.
type ArchivedPlan struct {
	Path   string     `json:"path"`
	Status PlanStatus `json:"status"`
}
