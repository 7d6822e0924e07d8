package agentproto

import "encoding/json"

// UpdateParams are agent/update's params: one update of a session's turn.
type UpdateParams struct {
	SessionID string `json:"sessionId"`
	// Update is one of the sessionUpdate kinds of docs/protocol.md §3.
	Update SessionUpdate `json:"update"`
}

// ModeSource is what changed a session's mode.
type ModeSource string

// The sources of a mode change.
const (
	// SourceTool: exit_plan_mode or enter_plan_mode.
	SourceTool ModeSource = "tool"
	// SourceUser: agent/newSession, agent/setMode, agent/resolvePlan.
	SourceUser ModeSource = "user"
	// SourceLoad: agent/loadSession.
	SourceLoad ModeSource = "load"
)

// ModeChangedParams are agent/modeChanged's params.
type ModeChangedParams struct {
	SessionID string     `json:"sessionId"`
	Mode      Mode       `json:"mode"`
	PlanFile  *string    `json:"planFile"`
	Source    ModeSource `json:"source"`
}

// Purpose is why agent/askUser asks.
type Purpose string

// The purposes of agent/askUser.
const (
	PurposeQuestion     Purpose = "question"
	PurposePlanApproval Purpose = "plan_approval"
	PurposePermission   Purpose = "permission"
)

// AskUserParams are agent/askUser's params: questions for the user.
type AskUserParams struct {
	SessionID  string `json:"sessionId"`
	QuestionID string `json:"questionId"`
	// Questions are 1 to 8 questions (docs/protocol.md §4).
	Questions []Question `json:"questions"`
	CreatedAt string     `json:"createdAt"`
	Purpose   Purpose    `json:"purpose"`
	// Errors are the previous answers' problems, by question name.
	Errors map[string]string `json:"errors,omitempty"`
	// Permission is the permission request the questions render (purpose
	// permission), or what a plan approval grants.
	Permission *PermissionRequest `json:"permission,omitempty"`
}

// AskUserResult is agent/askUser's result: the answers, or dismissed.
type AskUserResult struct {
	Answers   json.RawMessage `json:"answers,omitempty" ts:"Record<string, unknown>" lua:"table<string, any>"`
	Dismissed bool            `json:"dismissed,omitempty"`
}
