package agent

import (
	"encoding/json"

	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/questions"
)

// Update is one update of a session's turn: one of the Update* types
// (UpdateChunk, UpdateToolCall, UpdateToolCallDone, UpdateToolCallProgress
// (tool_progress.go), UpdatePlan, UpdateMode,
// UpdateQuestion, UpdateUsage, UpdateInstructions, UpdateSessionInfo
// (session_title.go)). The set is closed: a face type-switches on
// it, and each type's JSON is the update's wire shape (ACP's names).
type Update interface {
	isUpdate()
}

func (UpdateChunk) isUpdate()        {}
func (UpdateToolCall) isUpdate()     {}
func (UpdateToolCallDone) isUpdate() {}
func (UpdatePlan) isUpdate()         {}
func (UpdateMode) isUpdate()         {}
func (UpdateQuestion) isUpdate()     {}
func (UpdateUsage) isUpdate()        {}
func (UpdateInstructions) isUpdate() {}

// TextContent is an ACP text content block.
type TextContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// UpdateChunk is an agent_message_chunk or agent_thought_chunk update.
type UpdateChunk struct {
	SessionUpdate string      `json:"sessionUpdate"`
	Content       TextContent `json:"content"`
	// MessageID is the id of the message the chunk belongs to (as
	// persisted, and as agent/loadSession shows it).
	MessageID string `json:"messageId,omitempty"`
}

// UpdateToolCall announces a tool call (`tool_call`).
type UpdateToolCall struct {
	SessionUpdate string          `json:"sessionUpdate"`
	ToolCallID    string          `json:"toolCallId"`
	Title         string          `json:"title"`
	Kind          string          `json:"kind"`
	Status        string          `json:"status"`
	RawInput      json.RawMessage `json:"rawInput,omitempty"`
	// ParentToolCallID and ChildSessionID are set on a sub-agent's call,
	// shown in its root's stream: the task call it runs under and the
	// sub-agent's session (docs/subagents.md).
	ParentToolCallID string `json:"parentToolCallId,omitempty"`
	ChildSessionID   string `json:"childSessionId,omitempty"`
}

// UpdateToolCallDone reports a tool call's end (`tool_call_update`).
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

// ToolContent is an ACP tool call content item wrapping a text block.
type ToolContent struct {
	Type    string      `json:"type"`
	Content TextContent `json:"content"`
}

// PlanEntry is one step of the attached plan.
type PlanEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority"`
	Status   string `json:"status"`
}

// UpdatePlan is the complete list of the attached plan's steps (`plan`).
type UpdatePlan struct {
	SessionUpdate string      `json:"sessionUpdate"`
	PlanFile      string      `json:"planFile"`
	Entries       []PlanEntry `json:"entries"`
	// TickRefused is set on the update sent right after the builder's tick
	// was refused (tick_refusal.go); the next plan update has none.
	TickRefused *TickRefusal `json:"tickRefused,omitempty"`
}

// UpdateMode is `current_mode_update`.
type UpdateMode struct {
	SessionUpdate string     `json:"sessionUpdate"`
	CurrentModeID guard.Mode `json:"currentModeId"`
}

// UpdateQuestion is `question_pending`.
type UpdateQuestion struct {
	SessionUpdate string               `json:"sessionUpdate"`
	QuestionID    string               `json:"questionId"`
	Questions     []questions.Question `json:"questions"`
	CreatedAt     string               `json:"createdAt"`
}

// UpdateUsage is `usage_update`: the tokens of the last model request as
// the endpoint reported them, and the estimated size of the next request
// (contextTokens) against the model's context window.
type UpdateUsage struct {
	SessionUpdate string `json:"sessionUpdate"`
	InputTokens   int    `json:"inputTokens"`
	OutputTokens  int    `json:"outputTokens"`
	ContextTokens int    `json:"contextTokens,omitempty"`
	ContextWindow int    `json:"contextWindow,omitempty"`
	// Children are the tokens each sub-agent of the session spent, by its
	// task call, and Total the session's own and its sub-agents' together
	// (since the session was loaded); both absent before its first
	// sub-agent. An update sent for a sub-agent's request carries that
	// request's tokens in InputTokens and OutputTokens.
	Children []ChildUsage `json:"children,omitempty"`
	Total    *TokenTotal  `json:"total,omitempty"`
}

// ChildUsage is the tokens one sub-agent spent.
type ChildUsage struct {
	ToolCallID   string `json:"toolCallId"`
	InputTokens  int    `json:"inputTokens"`
	OutputTokens int    `json:"outputTokens"`
}

// TokenTotal is a sum of tokens.
type TokenTotal struct {
	InputTokens  int `json:"inputTokens"`
	OutputTokens int `json:"outputTokens"`
}

// UpdateInstructions is `instructions_loaded`: the project instruction
// files the model's requests now carry (docs/instructions.md), sent once
// per content.
type UpdateInstructions struct {
	SessionUpdate string            `json:"sessionUpdate"`
	Files         []InstructionFile `json:"files"`
}
