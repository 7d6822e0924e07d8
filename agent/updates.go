package agent

import (
	"encoding/json"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/questions"
)

// Update is one update of a session's turn: the protocol's SessionUpdate
// (agentproto/updates.go). Its members are the protocol's updates that
// carry only wire values (agentproto.MessageChunk, ToolCallStarted,
// PlanUpdate, ModeUpdate, UsageUpdate, InstructionsLoaded,
// SessionInfoUpdate), and the agent's own updates of the same wire shape
// that carry the agent's values (UpdateToolCallDone with a guard refusal,
// UpdateQuestion with validated questions, UpdateToolCallProgress
// (tool_progress.go), sent on ACP only), which hold what the wire leaves
// out: the agent's name for the union says so. A face type-switches on
// it, and each type's JSON is the update's wire shape (ACP's names).
type Update = agentproto.SessionUpdate

func (UpdateToolCallDone) IsSessionUpdate() {}
func (UpdateQuestion) IsSessionUpdate()     {}

// UpdateToolCallDone reports a tool call's end (`tool_call_update`): the
// protocol's ToolCallDone, with the guard's refusal (the faces read its
// reason and its text).
type UpdateToolCallDone struct {
	SessionUpdate string                   `json:"sessionUpdate"`
	ToolCallID    string                   `json:"toolCallId"`
	Status        string                   `json:"status"`
	Content       []agentproto.ToolContent `json:"content,omitempty"`
	RawOutput     json.RawMessage          `json:"rawOutput,omitempty"`
	Refusal       *guard.Refusal           `json:"refusal,omitempty"`
	// ParentToolCallID and ChildSessionID: as in agentproto.ToolCallStarted.
	ParentToolCallID string `json:"parentToolCallId,omitempty"`
	ChildSessionID   string `json:"childSessionId,omitempty"`
}

// UpdateQuestion is `question_pending`.
type UpdateQuestion struct {
	SessionUpdate string               `json:"sessionUpdate"`
	QuestionID    string               `json:"questionId"`
	Questions     []questions.Question `json:"questions"`
	CreatedAt     string               `json:"createdAt"`
}
