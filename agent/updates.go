package agent

import (
	"encoding/json"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/questions"
)

// Update is one update of a session's turn: the protocol's SessionUpdate
// (agentproto/updates.go), whose members are its types (UpdateChunk,
// UpdateToolCall, UpdatePlan, UpdateMode, UpdateUsage,
// UpdateInstructions, UpdateSessionInfo: the protocol's, under the
// agent's names) and the agent's own updates of the same wire shape that
// carry the agent's values (UpdateToolCallDone with a guard refusal,
// UpdateQuestion with validated questions, UpdateToolCallProgress
// (tool_progress.go), sent on ACP only). A face type-switches on it, and
// each type's JSON is the update's wire shape (ACP's names).
type Update = agentproto.SessionUpdate

func (UpdateToolCallDone) IsSessionUpdate() {}
func (UpdateQuestion) IsSessionUpdate()     {}

// The updates that carry only wire values are the protocol's.
type (
	// UpdateChunk is an agent_message_chunk or agent_thought_chunk update.
	UpdateChunk = agentproto.MessageChunk
	// UpdateToolCall announces a tool call (`tool_call`).
	UpdateToolCall = agentproto.ToolCallStarted
	// UpdatePlan is the complete list of the attached plan's steps
	// (`plan`); TickRefused is set on the update sent right after the
	// builder's tick was refused (tick_refusal.go).
	UpdatePlan = agentproto.PlanUpdate
	// UpdateUsage is `usage_update`: the tokens of the last model request
	// as the endpoint reported them, and the estimated size of the next
	// request (contextTokens) against the model's context window. An
	// update sent for a sub-agent's request carries that request's tokens
	// in InputTokens and OutputTokens.
	UpdateUsage = agentproto.UsageUpdate
	// UpdateInstructions is `instructions_loaded`: the project instruction
	// files the model's requests now carry (docs/instructions.md), sent
	// once per content.
	UpdateInstructions = agentproto.InstructionsLoaded
	// UpdateMode is `current_mode_update`: the session's mode, as the
	// protocol names it.
	UpdateMode = agentproto.ModeUpdate
	// UpdateSessionInfo is `session_info_update`: the session's title
	// changed (its first prompt named it, or agent/setTitle renamed it).
	UpdateSessionInfo = agentproto.SessionInfoUpdate
)

// The content blocks, a plan's step and the usage parts are the
// protocol's.
type (
	TextContent = agentproto.TextContent
	ToolContent = agentproto.ToolContent
	PlanEntry   = agentproto.PlanEntry
	ChildUsage  = agentproto.ChildUsage
	TokenTotal  = agentproto.TokenTotal
)

// UpdateToolCallDone reports a tool call's end (`tool_call_update`): the
// protocol's ToolCallDone, with the guard's refusal (the faces read its
// reason and its text).
type UpdateToolCallDone struct {
	SessionUpdate string          `json:"sessionUpdate"`
	ToolCallID    string          `json:"toolCallId"`
	Status        string          `json:"status"`
	Content       []ToolContent   `json:"content,omitempty"`
	RawOutput     json.RawMessage `json:"rawOutput,omitempty"`
	Refusal       *guard.Refusal  `json:"refusal,omitempty"`
	// ParentToolCallID and ChildSessionID: as in UpdateToolCall.
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
